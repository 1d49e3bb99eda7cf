#!/usr/bin/env python3
# Opens N plaintext subscribers (Hello, then Subscribe to ON_DUTY) to a server on 127.0.0.1:PORT
# and holds them for S seconds: the load for a heap profile of idle connections.
#   scripts/idle-subscribers.py N PORT S
import socket, struct, sys, time, select
n = int(sys.argv[1]); port = int(sys.argv[2]); hold = float(sys.argv[3])
def frame(t, rid, body): return struct.pack(">IBBI", 6 + len(body), t, 0, rid) + body
hello = frame(0x01, 1, bytes.fromhex("08011001")); sub = frame(0x20, 2, bytes.fromhex("0a0101"))
socks = []
for i in range(n):
    s = socket.create_connection(("127.0.0.1", port)); s.sendall(hello + sub); socks.append(s)
    if i % 200 == 199: time.sleep(0.05)
time.sleep(2)
for s in socks:
    s.setblocking(False)
    try: s.recv(65536)
    except BlockingIOError: pass
print("connected", n, flush=True)
time.sleep(hold)
