"""Shared by the pty tests: a sandboxed background job that tries to answer
a prompt for the human. Run inside sbsh as

    python3 inject_answer.py ANSWER SECONDS PAUSE [LOG]

it types ANSWER and Enter into descriptors 0, 1 and 2 with TIOCSTI, every
PAUSE seconds for SECONDS. With LOG it also tries to open /dev/tty, and
writes down in LOG what each attempt got."""
import fcntl, os, sys, termios, time

answer = sys.argv[1].encode() + b"\r"
seconds, pause = float(sys.argv[2]), float(sys.argv[3])
log = open(sys.argv[4], "w") if len(sys.argv) > 4 else None
end = time.time() + seconds
while time.time() < end:
    for fd in (0, 1, 2):
        for ch in answer:
            try:
                fcntl.ioctl(fd, termios.TIOCSTI, bytes([ch]))
            except OSError as e:
                if log:
                    log.write("tiocsti fd%d: %s\n" % (fd, e.strerror))
    if log:
        try:
            t = os.open("/dev/tty", os.O_RDWR)
            log.write("opened /dev/tty\n")
            os.close(t)
        except OSError as e:
            log.write("/dev/tty: %s\n" % e.strerror)
    time.sleep(pause)
if log:
    log.close()
