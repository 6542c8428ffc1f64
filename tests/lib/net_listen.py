#!/usr/bin/env python3
# net_listen.py tcp|udp ADDRESS PORT LOG PORTFILE: a listener for the
# network suites, judged from outside: each TCP connection (and the first
# bytes it sends) or UDP datagram is a line of LOG. PORT 0: the kernel
# picks one; the port is written to PORTFILE once it listens.
import socket
import sys

proto, addr, port, log_path, port_path = sys.argv[1:6]
family = socket.AF_INET6 if ":" in addr else socket.AF_INET
kind = socket.SOCK_STREAM if proto == "tcp" else socket.SOCK_DGRAM
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
    log.write("%s %r\n" % (peer[0], data))
    log.flush()
