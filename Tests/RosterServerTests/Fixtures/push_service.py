"""A push service on 127.0.0.1 for Roster's push tests (docs/PUSH.md), written from RFC 8030,
8291 and 8292 with independent parts: `cryptography` for keys and signatures, `http_ece` to
decrypt. It checks every request as a strict push service would and keeps what it received.

    push_service.py serve
        prints the port, then serves until stdin closes (the test's end, or its death):
        POST /subscriptions/NAME  makes a subscription's keys: {"endpoint", "p256dh", "auth"}
        POST /push/NAME           a Web Push message: checked, decrypted, kept; answered 201, or
                                  what /answers/NAME asked for next
        POST /answers/NAME        {"statuses": [410, ...], "retry_after": "2"}: the next answers;
                                  0 keeps the message and never answers (the sender dies with
                                  it in flight)
        POST /                    an ntfy JSON publish (https://docs.ntfy.sh/publish/#publish-as-json)
        GET  /received/NAME       what NAME received: [{"payload", "ttl", "urgency", "topic",
                                  "vapid": {"aud", "exp", "sub"}, "problems": [...], "status",
                                  "received_at": UNIX SECONDS}];
                                  an ntfy topic's as /received/ntfy:TOPIC
    push_service.py prove PORT
        sends to the running service with pywebpush (a second, independent sender) and with a
        forged request: prints {"pywebpush": RECEIVED, "forged": RECEIVED}
"""
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from web_push_check import b64, read_vapid  # beside this file

URGENCIES = {"very-low", "low", "normal", "high"}
BASE64URL = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


class Service:
    def __init__(self):
        self.lock = threading.Lock()
        self.keys = {}       # name -> (private key, auth)
        self.answers = {}    # name -> ([statuses], retry_after)
        self.received = {}   # name -> [records]
        self.port = 0

    def subscribe(self, name):
        private = ec.generate_private_key(ec.SECP256R1())
        public = private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
        auth = os.urandom(16)
        with self.lock:
            self.keys[name] = (private, auth)
        return {"endpoint": f"http://127.0.0.1:{self.port}/push/{name}", "p256dh": b64(public), "auth": b64(auth)}

    def next_answer(self, name):
        with self.lock:
            statuses, retry_after = self.answers.get(name, ([], None))
            if statuses:
                return statuses.pop(0), retry_after
        return 201, None

    def keep(self, name, record):
        with self.lock:
            self.received.setdefault(name, []).append(record)

    def vapid(self, header, problems):
        """RFC 8292: "vapid t=JWT, k=KEY", an ES256 JWT for this origin, signed by KEY."""
        try:
            header_fields, claim_fields = read_vapid(header)
        except ValueError as error:
            problems.append(str(error))
            return None
        if header_fields.get("alg") != "ES256":
            problems.append("the JWT is not ES256")
        if claim_fields.get("aud") != f"http://127.0.0.1:{self.port}":
            problems.append(f"aud is {claim_fields.get('aud')!r}, not this origin")
        now = time.time()
        exp = claim_fields.get("exp", 0)
        if not (now < exp <= now + 86400 + 60):
            problems.append(f"exp {exp} is not within the next 24 hours")
        sub = claim_fields.get("sub", "")
        if not (sub.startswith("mailto:") or sub.startswith("https:")):
            problems.append(f"sub {sub!r} is not a mailto: or https: URL")
        return {"aud": claim_fields.get("aud"), "exp": exp, "sub": sub}

    def push(self, name, headers, body):
        problems = []
        if name not in self.keys:
            return 404, None, None
        if headers.get("Content-Encoding") != "aes128gcm":
            problems.append(f"Content-Encoding is {headers.get('Content-Encoding')!r}")
        ttl = headers.get("TTL")
        if ttl is None or not ttl.isdigit():
            problems.append(f"TTL is {ttl!r}, not a number of seconds")
        urgency = headers.get("Urgency")
        if urgency is not None and urgency not in URGENCIES:
            problems.append(f"Urgency {urgency!r} is not one of RFC 8030's")
        topic = headers.get("Topic")
        if topic is not None and (len(topic) > 32 or not set(topic) <= BASE64URL):
            problems.append(f"Topic {topic!r} is not at most 32 base64url characters")
        if len(body) > 4096:
            problems.append(f"the body is {len(body)} bytes, more than 4096")
        vapid = self.vapid(headers.get("Authorization"), problems)
        private, auth = self.keys[name]
        payload = None
        try:
            plaintext = http_ece.decrypt(body, private_key=private, auth_secret=auth, version="aes128gcm")
            payload = json.loads(plaintext)
        except Exception as error:
            problems.append(f"the body does not decrypt: {error}")
        status, retry_after = self.next_answer(name)
        self.keep(name, {
            "payload": payload, "ttl": ttl, "urgency": urgency, "topic": topic, "vapid": vapid,
            "problems": problems, "status": status, "received_at": time.time(),
        })
        return status, retry_after, problems


class Handler(BaseHTTPRequestHandler):
    service = None
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body=b"", extra=()):
        self.send_response(status)
        for name, value in extra:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def do_POST(self):
        service, body = self.service, self.body()
        parts = self.path.strip("/").split("/")
        if parts == [""]:
            published = json.loads(body)
            service.keep("ntfy:" + published.get("topic", ""), {"publish": published, "status": 200})
            return self.answer(200, b"{}")
        if len(parts) == 2 and parts[0] == "subscriptions":
            return self.answer(200, json.dumps(service.subscribe(parts[1])).encode())
        if len(parts) == 2 and parts[0] == "answers":
            asked = json.loads(body)
            with service.lock:
                service.answers[parts[1]] = (list(asked.get("statuses", [])), asked.get("retry_after"))
            return self.answer(204)
        if len(parts) == 2 and parts[0] == "push":
            status, retry_after, _ = service.push(parts[1], self.headers, body)
            if status == 0:
                # Kept and never answered: the sender is killed with this request in flight.
                time.sleep(600)
                return
            extra = [("Retry-After", retry_after)] if status == 429 and retry_after else []
            if status == 201:
                extra.append(("Location", f"/messages/{os.urandom(8).hex()}"))
            return self.answer(status, b"", extra)
        self.answer(404)

    def do_GET(self):
        parts = self.path.strip("/").split("/", 1)
        if len(parts) == 2 and parts[0] == "received":
            with self.service.lock:
                kept = list(self.service.received.get(parts[1], []))
            return self.answer(200, json.dumps(kept).encode())
        self.answer(404)


def serve():
    service = Service()
    Handler.service = service
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    service.port = server.server_address[1]
    print(service.port, flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()  # until the test closes stdin or dies
    server.shutdown()


def prove(port):
    import urllib.request

    import requests
    from py_vapid import Vapid
    from pywebpush import webpush

    base = f"http://127.0.0.1:{port}"

    def post(path, data=b""):
        with urllib.request.urlopen(urllib.request.Request(base + path, data=data, method="POST")) as answer:
            return json.loads(answer.read() or b"null")

    def received(name):
        with urllib.request.urlopen(base + "/received/" + name) as answer:
            return json.loads(answer.read())

    subscription = post("/subscriptions/pywebpush")
    vapid = Vapid(private_key=ec.generate_private_key(ec.SECP256R1()))
    webpush(
        subscription_info={"endpoint": subscription["endpoint"],
                           "keys": {"p256dh": subscription["p256dh"], "auth": subscription["auth"]}},
        data=json.dumps({"title": "from pywebpush"}), vapid_private_key=vapid,
        vapid_claims={"sub": "mailto:tests@example.com"}, ttl=60, content_encoding="aes128gcm",
        headers={"Urgency": "high", "Topic": "proof"})
    forged = post("/subscriptions/forged")
    requests.post(forged["endpoint"], data=os.urandom(120), headers={
        "Content-Encoding": "aes128gcm", "TTL": "soon", "Urgency": "now",
        "Authorization": "vapid t=a.b.c, k=" + subscription["p256dh"]}, timeout=10)
    print(json.dumps({"pywebpush": received("pywebpush"), "forged": received("forged")}))


if __name__ == "__main__":
    if sys.argv[1:2] == ["serve"]:
        serve()
    elif sys.argv[1:2] == ["prove"]:
        prove(int(sys.argv[2]))
    else:
        sys.exit(__doc__)
