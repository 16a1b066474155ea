"""free_port.py ADDR...: print a TCP port free on every ADDR (50 tries;
nothing printed when none was found)."""
import socket
import sys


def main(addrs):
    for _ in range(50):
        s = socket.socket()
        s.bind((addrs[0], 0))
        port = s.getsockname()[1]
        held = [s]
        try:
            for a in addrs[1:]:
                t = socket.socket()
                held.append(t)
                t.bind((a, port))
        except OSError:
            continue
        finally:
            for h in held:
                h.close()
        print(port)
        return


if __name__ == '__main__':
    main(sys.argv[1:])
