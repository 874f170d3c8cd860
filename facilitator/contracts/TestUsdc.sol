// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

/// @title TestUsdc
/// @notice A USDC-shaped ERC-20 for the facilitator's development chain: 6 decimals, the EIP-712
/// domain of Base USDC ("USD Coin", version "2") and EIP-3009 transfers by signed authorization,
/// so the official x402 `exact` facilitator code settles against it exactly as against USDC.
/// @dev Written for this project. Revert strings are part of the interface: the x402 EVM
/// facilitator maps them to error codes with regular expressions ("authorization ... expired",
/// "authorization ... not ... valid", "authorization ... used", "transfer ... exceeds ... balance",
/// "invalid ... signature"), so keep those words when editing them.
contract TestUsdc {
    string public constant name = "USD Coin";
    string public constant symbol = "USDC";
    string public constant version = "2";
    uint8 public constant decimals = 6;

    bytes32 public constant TRANSFER_WITH_AUTHORIZATION_TYPEHASH =
        keccak256(
            "TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
        );
    bytes32 public constant RECEIVE_WITH_AUTHORIZATION_TYPEHASH =
        keccak256(
            "ReceiveWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
        );
    bytes32 public constant CANCEL_AUTHORIZATION_TYPEHASH =
        keccak256("CancelAuthorization(address authorizer,bytes32 nonce)");

    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes4 private constant ERC1271_MAGIC_VALUE = 0x1626ba7e;
    // Upper bound of `s` for a canonical (low-s) secp256k1 signature (EIP-2).
    uint256 private constant MAX_LOW_S = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    /// @notice The only account allowed to mint: whoever deployed the token.
    address public immutable minter;

    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    /// @notice Whether `nonce` of `authorizer` was used or canceled (EIP-3009 `authorizationState`).
    mapping(address => mapping(bytes32 => bool)) public authorizationState;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce);
    event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce);

    constructor() {
        minter = msg.sender;
    }

    /// @notice The EIP-712 domain separator, computed for the current chain id and this address on
    /// every call, so a signature for one chain (or one deployment) never verifies on another.
    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return
            keccak256(
                abi.encode(DOMAIN_TYPEHASH, keccak256(bytes(name)), keccak256(bytes(version)), block.chainid, address(this))
            );
    }

    /// @notice Creates `amount` units for `to`. Only the deployer may call it.
    function mint(address to, uint256 amount) external returns (bool) {
        require(msg.sender == minter, "TestUsdc: caller is not the minter");
        require(to != address(0), "TestUsdc: mint to the zero address");
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
        return true;
    }

    /// @notice ERC-20: moves `value` from the caller to `to`.
    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    /// @notice ERC-20: lets `spender` move up to `value` of the caller's tokens.
    function approve(address spender, uint256 value) external returns (bool) {
        require(spender != address(0), "TestUsdc: approve to the zero address");
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    /// @notice ERC-20: moves `value` from `from` to `to` within the caller's allowance.
    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= value, "TestUsdc: transfer amount exceeds allowance");
        allowance[from][msg.sender] = allowed - value;
        _move(from, to, value);
        return true;
    }

    /// @notice EIP-3009: moves `value` from `from` to `to` with `from`'s signature over a
    /// TransferWithAuthorization message; anyone may submit it.
    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external {
        _transferWithAuthorization(from, to, value, validAfter, validBefore, nonce, abi.encodePacked(r, s, v));
    }

    /// @notice EIP-3009 with the signature as bytes: 65-byte ECDSA for an externally owned
    /// account, anything its `isValidSignature` accepts for a contract account (ERC-1271).
    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) external {
        _transferWithAuthorization(from, to, value, validAfter, validBefore, nonce, signature);
    }

    /// @notice EIP-3009: like transferWithAuthorization, but only the payee may submit it, so a
    /// contract receiving the funds cannot be front-run out of its follow-up action.
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external {
        _receiveWithAuthorization(from, to, value, validAfter, validBefore, nonce, abi.encodePacked(r, s, v));
    }

    /// @notice receiveWithAuthorization with the signature as bytes (ECDSA or ERC-1271).
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) external {
        _receiveWithAuthorization(from, to, value, validAfter, validBefore, nonce, signature);
    }

    /// @notice EIP-3009: marks an unused nonce as canceled, with the authorizer's signature over a
    /// CancelAuthorization message.
    function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) external {
        _cancelAuthorization(authorizer, nonce, abi.encodePacked(r, s, v));
    }

    /// @notice cancelAuthorization with the signature as bytes (ECDSA or ERC-1271).
    function cancelAuthorization(address authorizer, bytes32 nonce, bytes memory signature) external {
        _cancelAuthorization(authorizer, nonce, signature);
    }

    function _transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) private {
        _useAuthorization(
            TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, signature
        );
        _move(from, to, value);
    }

    function _receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) private {
        require(to == msg.sender, "TestUsdc: caller must be the payee");
        _useAuthorization(
            RECEIVE_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, signature
        );
        _move(from, to, value);
    }

    // Checks the time window, the nonce and the signature, then burns the nonce. The balance is
    // checked by _move afterwards; a revert there undoes the nonce too.
    function _useAuthorization(
        bytes32 typehash,
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) private {
        require(block.timestamp > validAfter, "TestUsdc: authorization is not yet valid");
        require(block.timestamp < validBefore, "TestUsdc: authorization is expired");
        require(!authorizationState[from][nonce], "TestUsdc: authorization is used or canceled");
        bytes32 structHash = keccak256(abi.encode(typehash, from, to, value, validAfter, validBefore, nonce));
        _requireSignature(from, _digest(structHash), signature);
        authorizationState[from][nonce] = true;
        emit AuthorizationUsed(from, nonce);
    }

    function _cancelAuthorization(address authorizer, bytes32 nonce, bytes memory signature) private {
        require(!authorizationState[authorizer][nonce], "TestUsdc: authorization is used or canceled");
        bytes32 structHash = keccak256(abi.encode(CANCEL_AUTHORIZATION_TYPEHASH, authorizer, nonce));
        _requireSignature(authorizer, _digest(structHash), signature);
        authorizationState[authorizer][nonce] = true;
        emit AuthorizationCanceled(authorizer, nonce);
    }

    function _move(address from, address to, uint256 value) private {
        require(to != address(0), "TestUsdc: transfer to the zero address");
        uint256 held = balanceOf[from];
        require(held >= value, "TestUsdc: transfer amount exceeds balance");
        unchecked {
            // Cannot underflow (checked above) nor overflow (the sum of balances is totalSupply).
            balanceOf[from] = held - value;
            balanceOf[to] += value;
        }
        emit Transfer(from, to, value);
    }

    function _digest(bytes32 structHash) private view returns (bytes32) {
        return keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), structHash));
    }

    // An account with code answers through ERC-1271; any other must have signed with its key.
    function _requireSignature(address signer, bytes32 digest, bytes memory signature) private view {
        if (signer.code.length > 0) {
            (bool ok, bytes memory answer) =
                signer.staticcall(abi.encodeWithSelector(ERC1271_MAGIC_VALUE, digest, signature));
            require(
                ok && answer.length >= 32 && bytes4(abi.decode(answer, (bytes32))) == ERC1271_MAGIC_VALUE,
                "TestUsdc: invalid signature"
            );
            return;
        }
        require(signature.length == 65, "TestUsdc: invalid signature length");
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := mload(add(signature, 0x20))
            s := mload(add(signature, 0x40))
            v := byte(0, mload(add(signature, 0x60)))
        }
        // Only canonical signatures: a high `s` or an odd `v` would let a second signature for the
        // same message exist (malleability), and ecrecover answers 0 rather than failing.
        require(uint256(s) <= MAX_LOW_S, "TestUsdc: invalid signature 's' value");
        require(v == 27 || v == 28, "TestUsdc: invalid signature 'v' value");
        address recovered = ecrecover(digest, v, r, s);
        require(recovered != address(0) && recovered == signer, "TestUsdc: invalid signature");
    }
}
