#!/usr/bin/env python3
"""A stand-in for a chat's incoming webhook (docs/CHAT.md): prints the text of each post Roster
sends (Slack and Mattermost "text", Discord "content", a Teams card's TextBlocks, a Matrix
message's "body") and answers 200. Standard library only; for trying chat formats locally."""
import argparse
import http.server
import json


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.receive()

    def do_PUT(self):  # Matrix sends PUT …/send/m.room.message/TXN
        self.receive()

    def receive(self):
        length = int(self.headers.get("Content-Length", "0"))
        try:
            post = json.loads(self.rfile.read(min(length, 1 << 20)))
        except ValueError:
            post = {}
        text = post.get("text") or post.get("content") or post.get("body")
        if text is None and post.get("type") == "message":
            blocks = post["attachments"][0]["content"]["body"]
            text = "\n".join(block.get("text", "") for block in blocks)
        print(f"{self.command} {self.path}: {text}", flush=True)
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, default=8765)
    port = parser.parse_args().port
    http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
