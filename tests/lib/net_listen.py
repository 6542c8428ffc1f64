#!/usr/bin/env python3
# net_listen.py tcp|udp|dns ADDRESS PORT LOG PORTFILE: a listener for the
# network suites, judged from outside: each TCP connection (and the first
# bytes it sends) or UDP datagram is a line of LOG. PORT 0: the kernel
# picks one; the port is written to PORTFILE once it listens. dns: UDP
# that answers each A question with 127.0.0.2 (and others with no record),
# a nameserver of the suite's own.
import socket
import sys

proto, addr, port, log_path, port_path = sys.argv[1:6]
family = socket.AF_INET6 if ":" in addr else socket.AF_INET
kind = socket.SOCK_STREAM if proto == "tcp" else socket.SOCK_DGRAM


def answer(query):
    # the question ends at the name's 0 byte, then type and class
    end = query.index(b"\0", 12) + 5
    qtype = int.from_bytes(query[end - 4:end - 2], "big")
    an = 1 if qtype == 1 else 0
    reply = query[:2] + b"\x81\x80" + b"\0\1" + an.to_bytes(2, "big") + b"\0\0\0\0" + query[12:end]
    if an:
        reply += b"\xc0\x0c\0\1\0\1\0\0\0\x3c\0\4" + bytes([127, 0, 0, 2])
    return reply


s = socket.socket(family, kind)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((addr, int(port)))
if proto == "tcp":
    s.listen(16)
log = open(log_path, "a")
with open(port_path + ".tmp", "w") as f:
    f.write(str(s.getsockname()[1]))
import os
os.rename(port_path + ".tmp", port_path)
while True:
    if proto == "tcp":
        c, peer = s.accept()
        c.settimeout(1)
        try:
            data = c.recv(100)
        except OSError:
            data = b""
        c.close()
    else:
        data, peer = s.recvfrom(2048)
        if proto == "dns" and len(data) > 12 and data != b"marker":
            s.sendto(answer(data), peer)
    log.write("%s %r\n" % (peer[0], data))
    log.flush()
