// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

/// @title OwnedWallet
/// @notice The smallest contract account that can pay with EIP-3009: one owner key, and ERC-1271
/// `isValidSignature` that accepts the owner's 65-byte ECDSA signature over the digest. It lets
/// tests (and developers on the development chain) pay from a smart wallet, the payer the x402
/// facilitator verifies through the chain instead of by recovery.
/// @dev Written for this project. Real smart wallets wrap the digest in their own EIP-712 domain;
/// this one checks the digest as given, which is enough for a token authorization whose message
/// already names this wallet as `from`.
contract OwnedWallet {
    bytes4 private constant ERC1271_MAGIC_VALUE = 0x1626ba7e;
    bytes4 private constant ERC1271_INVALID = 0xffffffff;
    // Signatures with s above half the curve order are malleable twins; accept only the low form.
    uint256 private constant HALF_CURVE_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    /// @notice The key whose signatures this wallet accepts.
    address public immutable owner;

    constructor(address owner_) {
        require(owner_ != address(0), "OwnedWallet: owner is the zero address");
        owner = owner_;
    }

    /// @notice ERC-1271: the magic value when `signature` is the owner's signature of `digest`.
    function isValidSignature(bytes32 digest, bytes calldata signature) external view returns (bytes4) {
        if (signature.length != 65) return ERC1271_INVALID;
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (uint256(s) > HALF_CURVE_ORDER || (v != 27 && v != 28)) return ERC1271_INVALID;
        address signer = ecrecover(digest, v, r, s);
        return signer != address(0) && signer == owner ? ERC1271_MAGIC_VALUE : ERC1271_INVALID;
    }
}
