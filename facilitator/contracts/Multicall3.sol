// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.30;

/// @title Multicall3
/// @notice The smallest call batcher that answers like the canonical Multicall3
/// (0xcA11bde05977b3631167028862bE2a173976CA11): the x402 EVM facilitator diagnoses a failed
/// simulation with one `tryAggregate`, and viem batches reads with `aggregate3`. The development
/// chain places this runtime code at the canonical address (hardhat_setCode).
/// @dev Written for this project; only the function signatures and return shapes follow Multicall3.
contract Multicall3 {
    struct Call {
        address target;
        bytes callData;
    }

    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    /// @notice Runs every call; reverts if any of them fails.
    function aggregate(Call[] calldata calls) external payable returns (uint256 blockNumber, bytes[] memory returnData) {
        blockNumber = block.number;
        returnData = new bytes[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory data) = calls[i].target.call(calls[i].callData);
            require(ok, "Multicall3: call failed");
            returnData[i] = data;
        }
    }

    /// @notice Runs every call and reports each outcome; reverts on a failure only when
    /// `requireSuccess` is set.
    function tryAggregate(bool requireSuccess, Call[] calldata calls) external payable returns (Result[] memory returnData) {
        returnData = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory data) = calls[i].target.call(calls[i].callData);
            require(ok || !requireSuccess, "Multicall3: call failed");
            returnData[i] = Result(ok, data);
        }
    }

    /// @notice Runs every call and reports each outcome; a failure reverts the batch unless that
    /// call allows failure.
    function aggregate3(Call3[] calldata calls) external payable returns (Result[] memory returnData) {
        returnData = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory data) = calls[i].target.call(calls[i].callData);
            require(ok || calls[i].allowFailure, "Multicall3: call failed");
            returnData[i] = Result(ok, data);
        }
    }
}
