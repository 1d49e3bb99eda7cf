"""An OpenID Provider that lies, one way at a time, for Roster's sign-in tests: it serves
discovery, keys, an authorization endpoint that sends the browser straight back, and a token
endpoint that checks what a real one checks (the client's secret, PKCE's verifier, each code
used once) and then answers with the ID token of the case it was told to play. Tokens are
signed by joserfc (PyPI), or put together by hand where joserfc refuses (alg none).

    hostile_provider.py --client-secret SECRET

Prints "ISSUER http://127.0.0.1:PORT" when it serves. POST /case with {"case": NAME, "now":
UNIX_SECONDS} picks the case and the clock its tokens are stamped with (the server's test clock).
Cases: valid, alg-none, wrong-aud, expired, bad-signature, nonce-mismatch, unknown-kid, wrong-iss,
iss-in-response (the redirect back names another issuer), garbage-jwks (the key set is not JSON).

It also introspects tokens (RFC 7662, POST /introspect, the client's secret in HTTP Basic):
`good-…` is active and issued to roster (for an hour from the case's clock), `other-client` is
active but issued to another client, `slow-…` is held until POST /release (at most 20 s) and
then inactive, anything else inactive. GET /introspections says how many it answered or holds.

With --device-grant it offers the device authorization grant (RFC 8628): POST /device gives
the codes (user code WDJB-MJHT, interval 1 s), POST /device/decide {"decision": "allow" or
"deny"} answers the newest login as the person would on the provider's page, the token endpoint
answers each poll (an ID token of the case being played, without a nonce, once allowed), and
GET /device/polls says how many polls it answered.
"""
import argparse, base64, hashlib, json, sys, threading, time, urllib.parse, warnings
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from joserfc import jwt, jwk
from joserfc.jwk import KeySet

warnings.simplefilter("ignore")
CLIENT = "roster"
key = jwk.RSAKey.generate_key(2048, parameters={"kid": "rsa-1", "use": "sig"})
stranger = jwk.RSAKey.generate_key(2048, parameters={"kid": "rsa-9"})
state = {"case": "valid", "now": int(time.time()), "codes": {}, "used": set(), "next": 0, "introspections": 0,
         "devices": {}, "polls": 0}
lock = threading.Lock()
released = threading.Event()


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def id_token(issuer, nonce, case, now):
    claims = {"iss": issuer, "sub": "hostile-1", "aud": CLIENT, "exp": now + 300, "iat": now - 5, "nonce": nonce,
              "name": "Mallory Hostile", "email": "mallory@example.test"}
    if nonce is None:
        del claims["nonce"]
    if case == "wrong-aud":
        claims["aud"] = "another-client"
    if case == "expired":
        claims["exp"] = now - 120
    if case == "nonce-mismatch":
        claims["nonce"] = "a-nonce-of-another-sign-in"
    if case == "wrong-iss":
        claims["iss"] = "http://127.0.0.1:1/evil"
    if case == "alg-none":
        return b64(json.dumps({"alg": "none"}).encode()) + "." + b64(json.dumps(claims).encode()) + "."
    signer = stranger if case == "unknown-kid" else key
    token = jwt.encode({"alg": "RS256", "kid": signer.kid}, claims, signer, algorithms=["RS256"])
    if case == "bad-signature":
        head, body, signature = token.split(".")
        raw = bytearray(base64.urlsafe_b64decode(signature + "=" * (-len(signature) % 4)))
        raw[10] ^= 1
        token = head + "." + body + "." + b64(bytes(raw))
    return token


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--client-secret", required=True)
    parser.add_argument("--device-grant", action="store_true")
    args = parser.parse_args()
    basic = "Basic " + base64.b64encode(f"{CLIENT}:{args.client_secret}".encode()).decode()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_):
            pass

        def send(self, status, body, content_type="application/json", headers=()):
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            for name, value in headers:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            query = dict(urllib.parse.parse_qsl(url.query))
            if url.path == "/.well-known/openid-configuration":
                return self.send(200, {
                    "issuer": issuer, "authorization_endpoint": issuer + "/authorize",
                    "token_endpoint": issuer + "/token", "jwks_uri": issuer + "/jwks",
                    "id_token_signing_alg_values_supported": ["RS256"],
                    "code_challenge_methods_supported": ["S256"],
                    "authorization_response_iss_parameter_supported": True,
                    "token_endpoint_auth_methods_supported": ["client_secret_basic"],
                    "introspection_endpoint": issuer + "/introspect",
                    **({"device_authorization_endpoint": issuer + "/device"} if args.device_grant else {})})
            if url.path == "/device/polls":
                return self.send(200, {"count": state["polls"]})
            if url.path == "/introspections":
                return self.send(200, {"count": state["introspections"]})
            if url.path == "/jwks":
                if state["case"] == "garbage-jwks":
                    return self.send(200, b"<html>not a key set</html>", "text/html")
                return self.send(200, KeySet([key]).as_dict(private=False))
            if url.path == "/authorize":
                with lock:
                    state["next"] += 1
                    code = f"code-{state['next']}"
                    state["codes"][code] = (query.get("nonce", ""), query.get("code_challenge", ""),
                                            query.get("redirect_uri", ""), state["case"], state["now"])
                back = "http://127.0.0.1:1/evil" if state["case"] == "iss-in-response" else issuer
                target = query["redirect_uri"] + "?" + urllib.parse.urlencode(
                    {"code": code, "state": query.get("state", ""), "iss": back})
                return self.send(302, b"", "text/plain", [("Location", target)])
            self.send(404, {"error": "not_found"})

        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length).decode()
            if self.path == "/case":
                asked = json.loads(body)
                with lock:
                    state["case"], state["now"] = asked["case"], int(asked["now"])
                return self.send(200, {"case": state["case"]})
            if self.path == "/release":
                released.set()
                return self.send(200, {})
            if self.path == "/introspect":
                return self.introspect(dict(urllib.parse.parse_qsl(body)))
            if self.path == "/device" and args.device_grant:
                if self.headers.get("Authorization") != basic:
                    return self.send(401, {"error": "invalid_client"})
                with lock:
                    state["next"] += 1
                    code = f"device-{state['next']}"
                    state["devices"][code] = "pending"
                return self.send(200, {"device_code": code, "user_code": "WDJB-MJHT",
                                       "verification_uri": issuer + "/device/verify",
                                       "verification_uri_complete": issuer + "/device/verify?user_code=WDJB-MJHT",
                                       "expires_in": 600, "interval": 1})
            if self.path == "/device/decide":
                decision = json.loads(body)["decision"]
                with lock:
                    newest = max(state["devices"], key=lambda code: int(code.split("-")[1]))
                    state["devices"][newest] = decision
                return self.send(200, {"device_code": newest})
            if self.path != "/token":
                return self.send(404, {"error": "not_found"})
            form = dict(urllib.parse.parse_qsl(body))
            if self.headers.get("Authorization") != basic:
                return self.send(401, {"error": "invalid_client"})
            if form.get("grant_type") == "urn:ietf:params:oauth:grant-type:device_code":
                with lock:
                    state["polls"] += 1
                    decision = state["devices"].get(form.get("device_code", ""))
                if decision is None:
                    return self.send(400, {"error": "expired_token"})
                if decision == "pending":
                    return self.send(400, {"error": "authorization_pending"})
                if decision == "deny":
                    return self.send(400, {"error": "access_denied"})
                return self.send(200, {"access_token": "at", "token_type": "Bearer", "expires_in": 300,
                                       "id_token": id_token(issuer, None, state["case"], state["now"])})
            code = form.get("code", "")
            with lock:
                found = state["codes"].get(code)
                replayed = code in state["used"]
                state["used"].add(code)
            if found is None or replayed:
                return self.send(400, {"error": "invalid_grant", "error_description": "the code was used already"})
            nonce, challenge, redirect, case, now = found
            verifier = form.get("code_verifier", "")
            if b64(hashlib.sha256(verifier.encode()).digest()) != challenge or form.get("redirect_uri") != redirect:
                return self.send(400, {"error": "invalid_grant", "error_description": "PKCE or redirect_uri mismatch"})
            self.send(200, {"access_token": "at", "token_type": "Bearer", "expires_in": 300,
                            "id_token": id_token(issuer, nonce, case, now)})

        def introspect(self, form):
            if self.headers.get("Authorization") != basic:
                return self.send(401, {"error": "invalid_client"})
            token = form.get("token", "")
            with lock:
                state["introspections"] += 1
            if token.startswith("good-"):
                return self.send(200, {"active": True, "client_id": CLIENT, "aud": [CLIENT], "iss": issuer,
                                       "exp": state["now"] + 3600})
            if token == "other-client":
                return self.send(200, {"active": True, "client_id": "portal", "iss": issuer})
            if token.startswith("slow-"):
                released.wait(20)
            self.send(200, {"active": False})

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    issuer = f"http://127.0.0.1:{server.server_port}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"ISSUER {issuer}", flush=True)
    for _ in sys.stdin:
        pass
    server.shutdown()


if __name__ == "__main__":
    main()
