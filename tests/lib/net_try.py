#!/usr/bin/env python3
# net_try.py WHAT ADDRESS PORT...: tries to reach ADDRESS:PORT from inside
# the sandbox in one way, and prints "WHAT ok" or "WHAT ERRNO-NAME". The
# network suites judge what the listener got, not this output alone.
#   tcp         connect()
#   fastopen    sendto() with MSG_FASTOPEN on a fresh TCP socket (connects)
#   fastopen-msg the same through sendmsg()
#   udp         sendto()
#   udp-connect connect(), then send()
#   udp-msg     sendmsg() with the address
#   udp-mmsg    sendmmsg() of two datagrams, each with the address
#   udp-unspec  connect(), then connect(AF_UNSPEC): the disconnect works
import ctypes
import errno
import socket
import sys

MSG_FASTOPEN = 0x20000000


class Iovec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]


class Msghdr(ctypes.Structure):
    _fields_ = [("name", ctypes.c_void_p), ("namelen", ctypes.c_uint32), ("iov", ctypes.POINTER(Iovec)),
                ("iovlen", ctypes.c_size_t), ("control", ctypes.c_void_p), ("controllen", ctypes.c_size_t),
                ("flags", ctypes.c_int)]


class Mmsghdr(ctypes.Structure):
    _fields_ = [("hdr", Msghdr), ("len", ctypes.c_uint)]


def sendmmsg(s, dest):
    # the address as the kernel takes it: sockaddr_in or sockaddr_in6
    if s.family == socket.AF_INET:
        name = (socket.AF_INET).to_bytes(2, "little") + dest[1].to_bytes(2, "big") + socket.inet_aton(dest[0]) + bytes(8)
    else:
        name = (socket.AF_INET6).to_bytes(2, "little") + dest[1].to_bytes(2, "big") + bytes(4) + \
            socket.inet_pton(socket.AF_INET6, dest[0]) + bytes(4)
    nbuf = ctypes.create_string_buffer(name, len(name))
    data = ctypes.create_string_buffer(b"udp-mmsg", 8)
    iov = Iovec(ctypes.cast(data, ctypes.c_void_p), 8)
    msgs = (Mmsghdr * 2)()
    for m in msgs:
        m.hdr = Msghdr(ctypes.cast(nbuf, ctypes.c_void_p), len(name), ctypes.pointer(iov), 1, None, 0, 0)
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.sendmmsg(s.fileno(), msgs, 2, 0) < 0:
        raise OSError(ctypes.get_errno(), "sendmmsg")


def family(addr):
    return socket.AF_INET6 if ":" in addr else socket.AF_INET


def attempt(what, addr, port):
    dest = (addr, port, 0, 0) if ":" in addr else (addr, port)
    if what in ("tcp", "fastopen", "fastopen-msg"):
        s = socket.socket(family(addr), socket.SOCK_STREAM)
        s.settimeout(3)
        if what == "tcp":
            s.connect(dest)
            s.sendall(b"raw")
        elif what == "fastopen":
            s.sendto(b"fastopen", MSG_FASTOPEN, dest)
        else:
            s.sendmsg([b"fastopen-msg"], [], MSG_FASTOPEN, dest)
        s.close()
        return
    s = socket.socket(family(addr), socket.SOCK_DGRAM)
    if what == "udp":
        s.sendto(b"udp", dest)
    elif what == "udp-connect":
        s.connect(dest)
        s.send(b"udp-connect")
    elif what == "udp-msg":
        s.sendmsg([b"udp-msg"], [], 0, dest)
    elif what == "udp-mmsg":
        sendmmsg(s, dest)
    elif what == "udp-unspec":
        s.connect(dest)
        libc = ctypes.CDLL(None, use_errno=True)
        unspec = ctypes.create_string_buffer(16)  # sa_family 0: AF_UNSPEC
        if libc.connect(s.fileno(), unspec, 16) != 0:
            raise OSError(ctypes.get_errno(), "connect(AF_UNSPEC)")
    s.close()


what, addr = sys.argv[1], sys.argv[2]
for port in sys.argv[3:]:
    try:
        attempt(what, addr, int(port))
        print(what, "ok")
    except OSError as e:
        print(what, errno.errorcode.get(e.errno, str(e.errno)) if e.errno else type(e).__name__)
