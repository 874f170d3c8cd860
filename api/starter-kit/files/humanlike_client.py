#!/usr/bin/env python3
"""humanlike starter kit: pay for one scoring session over x402 from Python.

    pip install eth-account
    HUMANLIKE_URL=http://localhost:3000 HUMANLIKE_PRIVATE_KEY=0x<64 hex digits> python3 humanlike_client.py

The private key stays in this process: eth-account signs an EIP-3009 TransferWithAuthorization
(EIP-712 typed data) for the exact quoted amount of USDC; the wallet needs no gas. The service
never sees the key. Only the standard library is used for HTTP.
"""

import base64
import json
import os
import secrets
import sys
import time
import urllib.error
import urllib.request

from eth_account import Account

BASE_URL = os.environ.get("HUMANLIKE_URL", "http://localhost:3000").rstrip("/")
PRIVATE_KEY = os.environ.get("HUMANLIKE_PRIVATE_KEY", "")


def post(path, body, headers=None):
    """POST JSON; return (status, headers, parsed body) for any status."""
    request = urllib.request.Request(
        BASE_URL + path,
        data=json.dumps(body).encode("utf-8"),
        headers={"Content-Type": "application/json", "Accept": "application/json", **(headers or {})},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.headers, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, error.headers, json.loads(error.read() or b"{}")


def sign_payment(account, payment_required, requirement):
    """The x402 v2 PaymentPayload for one `accepts` entry, as the PAYMENT-SIGNATURE header value."""
    chain_id = int(requirement["network"].split(":")[1])
    now = int(time.time())
    authorization = {
        "from": account.address,
        "to": requirement["payTo"],
        "value": int(requirement["amount"]),
        "validAfter": now - 600,
        "validBefore": now + int(requirement["maxTimeoutSeconds"]),
        "nonce": "0x" + secrets.token_hex(32),
    }
    signed = Account.sign_typed_data(
        account.key,
        domain_data={
            "name": requirement["extra"]["name"],
            "version": requirement["extra"]["version"],
            "chainId": chain_id,
            "verifyingContract": requirement["asset"],
        },
        message_types={
            "TransferWithAuthorization": [
                {"name": "from", "type": "address"},
                {"name": "to", "type": "address"},
                {"name": "value", "type": "uint256"},
                {"name": "validAfter", "type": "uint256"},
                {"name": "validBefore", "type": "uint256"},
                {"name": "nonce", "type": "bytes32"},
            ]
        },
        message_data=authorization,
    )
    payload = {
        "x402Version": 2,
        "resource": payment_required["resource"],
        "accepted": requirement,
        # Every value of the authorization travels as a string.
        "payload": {
            "signature": "0x" + signed.signature.hex().removeprefix("0x"),
            "authorization": {key: str(value) for key, value in authorization.items()},
        },
    }
    if payment_required.get("extensions"):
        payload["extensions"] = payment_required["extensions"]
    return base64.b64encode(json.dumps(payload).encode("utf-8")).decode("ascii")


def main():
    if not PRIVATE_KEY:
        sys.exit("Set HUMANLIKE_PRIVATE_KEY to the 0x-prefixed private key of a wallet holding USDC.")
    account = Account.from_key(PRIVATE_KEY)
    session = {
        "wallet_address": account.address,
        "proposed_text": "Oh no, so sorry. That must feel awful. I am here if you want to talk tonight, maybe?",
        "response_delay_seconds": 45,
        "target_profile": "grief-support-peer",
        "tier": "basic",
    }
    status, headers, body = post("/api/simulate", session)
    if status != 402:
        sys.exit(f"expected the 402 quote, got {status}: {body}")
    # The v2 object is in the PAYMENT-REQUIRED header; its first entry is USDC (exact, EIP-3009).
    payment_required = json.loads(base64.b64decode(headers["PAYMENT-REQUIRED"]))
    requirement = payment_required["accepts"][0]
    # Retry the exact same request once, with the signed payment.
    status, headers, body = post("/api/simulate", session, {"PAYMENT-SIGNATURE": sign_payment(account, payment_required, requirement)})
    if status != 200:
        sys.exit(f"humanlike answered {status}: {body}")
    receipt = json.loads(base64.b64decode(headers["PAYMENT-RESPONSE"]))
    print(json.dumps({
        "result_id": body["result_id"],
        "eq_score": body["score"]["eq_score"],
        "passed": body["score"]["passed"],
        "improvement": body["improvement"],
        "transaction": receipt["transaction"],
    }, indent=2))


if __name__ == "__main__":
    main()
