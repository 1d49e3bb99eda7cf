#!/usr/bin/env python3
"""A webhook receiver for Roster, standard library only: verifies each delivery's signature,
drops repeats of a delivery it has already handled, and prints one line per event.

    python3 docs/examples/webhook_receiver.py --port 8765 --secret whsec_...

docs/NOTIFICATIONS.md explains the headers and the signature."""
import argparse
import hashlib
import hmac
import http.server
import json
import time

TOLERANCE = 300  # seconds between the signature's timestamp and now


def verify(secret: str, header: str, body: bytes, now: float) -> bool:
    parts = {}
    for item in header.split(","):
        key, _, value = item.partition("=")
        parts.setdefault(key.strip(), []).append(value.strip())
    try:
        timestamp = int(parts["t"][0])
    except (KeyError, ValueError):
        return False
    if abs(now - timestamp) > TOLERANCE:
        return False
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, given) for given in parts.get("v1", []))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--secret", required=True, help="the secret `roster-client admin webhook add` printed")
    arguments = parser.parse_args()
    seen = set()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            if not verify(arguments.secret, self.headers.get("Roster-Signature", ""), body, time.time()):
                self.send_response(401)
                self.end_headers()
                print("refused: bad signature", flush=True)
                return
            delivery = self.headers.get("Roster-Delivery", "")
            if delivery not in seen:  # at least once: a repeat carries the same delivery id
                seen.add(delivery)
                event = json.loads(body)
                print(event["about"], event["type"], json.dumps(event["data"], sort_keys=True), flush=True)
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    http.server.ThreadingHTTPServer(("127.0.0.1", arguments.port), Handler).serve_forever()


if __name__ == "__main__":
    main()
