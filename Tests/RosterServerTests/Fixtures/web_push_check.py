"""A subscriber's side of Web Push, for Roster's sender tests, by independent implementations:
the `cryptography` package for keys and signatures, and `http_ece` (RFC 8188/8291) to decrypt.

    web_push_check.py keys
        prints {"p256dh": B64URL, "auth": B64URL, "private": B64URL}: a browser's subscription keys
    web_push_check.py check < {"private", "auth", "body", "authorization", "endpoint", "subject", "now"}
        decrypts the body and checks the VAPID header (RFC 8292): prints {"plaintext", "rs",
        "keyid_length", "aud", "exp", "sub", "typ", "alg"}, or {"error": WHY} and exits 1
    web_push_check.py decrypt < {"private", "auth", "bodies": [B64URL]}
        prints {"plaintexts": [TEXT or null]}: each body decrypted, null where it cannot be
"""
import base64
import json
import os
import sys

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def keys():
    private = ec.generate_private_key(ec.SECP256R1())
    public = private.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    scalar = private.private_numbers().private_value.to_bytes(32, "big")
    print(json.dumps({"p256dh": b64(public), "auth": b64(os.urandom(16)), "private": b64(scalar)}))


def fail(why):
    print(json.dumps({"error": why}))
    sys.exit(1)


def read_vapid(authorization):
    """RFC 8292 §3's "vapid t=JWT, k=KEY": the JWT's header and claims once its ES256 signature
    verifies with KEY; ValueError saying why not (push_service.py reads its requests with it)."""
    scheme, _, rest = (authorization or "").partition(" ")
    if scheme.lower() != "vapid":
        raise ValueError("not the vapid scheme")
    try:
        params = dict(part.strip().split("=", 1) for part in rest.split(","))
        token, key = params["t"], unb64(params["k"])
        head, claims, signature = token.split(".")
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key)
        raw = unb64(signature)
    except Exception as error:  # a malformed header is a finding, not a crash
        raise ValueError(f"the vapid header cannot be read: {error}")
    if len(raw) != 64:
        raise ValueError("the signature is not r and s of 32 bytes each (ES256)")
    der = utils.encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        public.verify(der, (head + "." + claims).encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise ValueError("the VAPID signature does not verify with k")
    return json.loads(unb64(head)), json.loads(unb64(claims))


def check():
    asked = json.load(sys.stdin)
    private = ec.derive_private_key(int.from_bytes(unb64(asked["private"]), "big"), ec.SECP256R1())
    body = unb64(asked["body"])
    try:
        plaintext = http_ece.decrypt(body, private_key=private, auth_secret=unb64(asked["auth"]),
                                     version="aes128gcm")
    except Exception as error:
        fail(f"http_ece could not decrypt: {error}")
    try:
        header, payload = read_vapid(asked["authorization"])
    except ValueError as error:
        fail(str(error))
    print(json.dumps({
        "plaintext": plaintext.decode(), "rs": int.from_bytes(body[16:20], "big"), "keyid_length": body[20],
        "aud": payload.get("aud"), "exp": payload.get("exp"), "sub": payload.get("sub"),
        "typ": header.get("typ"), "alg": header.get("alg")}))


def decrypt():
    asked = json.load(sys.stdin)
    private = ec.derive_private_key(int.from_bytes(unb64(asked["private"]), "big"), ec.SECP256R1())
    plaintexts = []
    for body in asked["bodies"]:
        try:
            plaintexts.append(http_ece.decrypt(unb64(body), private_key=private, auth_secret=unb64(asked["auth"]),
                                               version="aes128gcm").decode())
        except Exception:
            plaintexts.append(None)
    print(json.dumps({"plaintexts": plaintexts}))


if __name__ == "__main__":
    {"keys": keys, "check": check, "decrypt": decrypt}[sys.argv[1]]()
