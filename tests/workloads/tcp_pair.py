# A TCP server and its client over loopback, one connection: the client sends "ping", the server answers it in
# capitals. Used by tests that record a real TCP pair (map_fragment.sh, inventory_workloads.sh):
#   python3 tcp_pair.py server PORTFILE & python3 tcp_pair.py client PORTFILE
import os, socket, sys, time
role, portfile = sys.argv[1], sys.argv[2]
if role == "server":
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    open(portfile + ".tmp", "w").write(str(s.getsockname()[1]))
    os.rename(portfile + ".tmp", portfile)
    c, _ = s.accept()
    c.sendall(c.recv(64).upper())
    c.close()
else:
    for _ in range(200):
        if os.path.exists(portfile):
            break
        time.sleep(0.05)
    c = socket.create_connection(("127.0.0.1", int(open(portfile).read())))
    c.sendall(b"ping")
    print(c.recv(64).decode())
