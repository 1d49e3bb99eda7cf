"""ID tokens for RosterIdentityTests, from an implementation that is not Roster's.

Valid tokens are signed by joserfc (PyPI), the independent JOSE implementation; the hostile ones
are put together by hand here (joserfc rightly refuses to make most of them), each breaking one
rule of OIDC Core 3.1.3.7 or RFC 8725. Prints one JSON document: the provider's published key set,
what the relying party expects, and each case with the refusal Roster must give (or "accepted").
"""
import base64, hashlib, hmac, json, sys, time, warnings

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, utils
from joserfc import jwt, jwk
from joserfc.jwk import KeySet

# joserfc warns of the 1024-bit key and of EdDSA's new name (RFC 9864): both are meant here.
warnings.simplefilter("ignore")

ISSUER = "https://id.example.test/realms/acme"
CLIENT = "roster"
NONCE = "n-0S6_WzA2Mj-4b2c7c9c3d1e0f8a6b5"
NOW = int(time.time())

rsa = jwk.RSAKey.generate_key(2048, parameters={"kid": "rsa-1", "use": "sig"})
ecp = jwk.ECKey.generate_key("P-256", parameters={"kid": "ec-1"})
okp = jwk.OKPKey.generate_key("Ed25519", parameters={"kid": "ed-1"})
other_rsa = jwk.RSAKey.generate_key(2048, parameters={"kid": "rsa-1"})
short_rsa = jwk.RSAKey.generate_key(1024, parameters={"kid": "rsa-short"}, private=True)
p384 = jwk.ECKey.generate_key("P-384", parameters={"kid": "ec-384"})
encryption = jwk.RSAKey.generate_key(2048, parameters={"kid": "rsa-enc", "use": "enc"})

published = KeySet([rsa, ecp, okp, short_rsa, p384, encryption]).as_dict(private=False)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def claims(**changes):
    base = {
        "iss": ISSUER, "sub": "248289761001", "aud": CLIENT, "exp": NOW + 300, "iat": NOW - 5,
        "nonce": NONCE, "email": "ada@example.test", "email_verified": True, "name": "Ada Lovelace",
        "groups": ["oncall-admins", "payments"], "realm_access": {"roles": ["reader"]},
    }
    for key, value in changes.items():
        if value is None:
            base.pop(key, None)
        else:
            base[key] = value
    return base


def by_joserfc(alg, key, body):
    return jwt.encode({"alg": alg, "kid": key.kid}, body, key, algorithms=[alg])


def by_hand(header, body, alg, key, der_ecdsa=False):
    """A compact JWS signed here, for headers and signatures joserfc will not produce."""
    signing_input = (b64(json.dumps(header).encode()) + "." + b64(json.dumps(body).encode())).encode()
    private = key.private_key if key is not None else None
    if alg == "RS256":
        signature = private.sign(signing_input, padding.PKCS1v15(), hashes.SHA256())
    elif alg == "PS256":
        signature = private.sign(
            signing_input, padding.PSS(mgf=padding.MGF1(hashes.SHA256()), salt_length=32), hashes.SHA256())
    elif alg == "ES256":
        der = private.sign(signing_input, ec.ECDSA(hashes.SHA256()))
        r, s = utils.decode_dss_signature(der)
        signature = der if der_ecdsa else r.to_bytes(32, "big") + s.to_bytes(32, "big")
    elif alg == "EdDSA":
        signature = private.sign(signing_input)
    elif alg == "HS256":
        # The classic confusion: the provider's public key, as PEM, used as an HMAC secret.
        secret = rsa.public_key.public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        signature = hmac.new(secret, signing_input, hashlib.sha256).digest()
    else:
        signature = b""
    return signing_input.decode() + "." + b64(signature)


def flipped(token):
    head, body, signature = token.split(".")
    raw = bytearray(base64.urlsafe_b64decode(signature + "=" * (-len(signature) % 4)))
    raw[10] ^= 0x01
    return head + "." + body + "." + b64(bytes(raw))


cases = [
    ("RS256 from joserfc", by_joserfc("RS256", rsa, claims()), "accepted"),
    ("ES256 from joserfc", by_joserfc("ES256", ecp, claims()), "accepted"),
    ("EdDSA from joserfc", by_joserfc("EdDSA", okp, claims()), "accepted"),
    ("RS256 without a kid", by_hand({"alg": "RS256"}, claims(), "RS256", rsa), "accepted"),
    ("expired within the skew", by_joserfc("RS256", rsa, claims(exp=NOW - 30)), "accepted"),
    ("two audiences, azp is the client", by_joserfc("RS256", rsa, claims(aud=[CLIENT, "api"], azp=CLIENT)), "accepted"),
    ("alg none", by_hand({"alg": "none"}, claims(), "none", None), "unsigned"),
    ("alg None", by_hand({"alg": "None", "kid": "rsa-1"}, claims(), "none", None), "unsigned"),
    ("HS256 with the public key as secret", by_hand({"alg": "HS256", "kid": "rsa-1"}, claims(), "HS256", None), "symmetric"),
    ("PS256", by_hand({"alg": "PS256", "kid": "rsa-1"}, claims(), "PS256", rsa), "algorithmNotAllowed"),
    ("ES256 where the provider offers RS256 only", by_joserfc("ES256", ecp, claims()), "algorithmNotAllowed", ["RS256"]),
    ("a critical header", by_hand({"alg": "RS256", "kid": "rsa-1", "crit": ["exp"], "exp": 1}, claims(), "RS256", rsa), "criticalHeader"),
    ("an unknown kid", by_hand({"alg": "RS256", "kid": "rsa-2"}, claims(), "RS256", rsa), "unknownKey"),
    ("ES256 naming the RSA key", by_hand({"alg": "ES256", "kid": "rsa-1"}, claims(), "ES256", ecp), "unknownKey"),
    ("a key left out of the set (1024-bit RSA)", by_hand({"alg": "RS256", "kid": "rsa-short"}, claims(), "RS256", short_rsa), "unknownKey"),
    ("a bad signature", flipped(by_joserfc("RS256", rsa, claims())), "badSignature"),
    ("another key with the same kid", by_joserfc("RS256", other_rsa, claims()), "badSignature"),
    ("ES256 with a DER signature", by_hand({"alg": "ES256", "kid": "ec-1"}, claims(), "ES256", ecp, der_ecdsa=True), "badSignature"),
    ("a bad EdDSA signature", flipped(by_joserfc("EdDSA", okp, claims())), "badSignature"),
    ("a wrong iss", by_joserfc("RS256", rsa, claims(iss="https://evil.example.test/realms/acme")), "wrongIssuer"),
    ("iss with a trailing slash", by_joserfc("RS256", rsa, claims(iss=ISSUER + "/")), "wrongIssuer"),
    ("a wrong aud", by_joserfc("RS256", rsa, claims(aud="another-client")), "wrongAudience"),
    ("two audiences without azp", by_joserfc("RS256", rsa, claims(aud=[CLIENT, "api"])), "wrongAuthorizedParty"),
    ("azp of another client", by_joserfc("RS256", rsa, claims(azp="another-client")), "wrongAuthorizedParty"),
    ("expired", by_joserfc("RS256", rsa, claims(exp=NOW - 61)), "expired"),
    ("no exp", by_joserfc("RS256", rsa, claims(exp=None)), "missingTime"),
    ("issued in the future", by_joserfc("RS256", rsa, claims(iat=NOW + 120)), "issuedInFuture"),
    ("a nonce of another sign-in", by_joserfc("RS256", rsa, claims(nonce="another")), "nonceMismatch"),
    ("no nonce", by_joserfc("RS256", rsa, claims(nonce=None)), "nonceMismatch"),
    ("no sub", by_joserfc("RS256", rsa, claims(sub=None)), "missingSubject"),
    ("encrypted (JWE)", "eyJhbGciOiJSU0EtT0FFUCIsImVuYyI6IkEyNTZHQ00ifQ.a.b.c.d", "encrypted"),
    ("two parts", "eyJhbGciOiJSUzI1NiJ9.e30", "malformed"),
    ("a header that is not JSON", b64(b"{alg") + "." + b64(b"{}") + ".c2ln", "malformed"),
    ("padded base64", by_joserfc("RS256", rsa, claims()) + "=", "malformed"),
    ("larger than 16 KiB", by_joserfc("RS256", rsa, claims(padding="x" * 17000)), "tooLarge"),
]

print(json.dumps({
    "issuer": ISSUER, "clientID": CLIENT, "nonce": NONCE, "now": NOW, "jwks": published,
    "cases": [
        {"name": case[0], "token": case[1], "expect": case[2], "algorithms": case[3] if len(case) > 3 else None}
        for case in cases
    ],
}))
