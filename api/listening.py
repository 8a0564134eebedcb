"""Where this process really listens: the audit surface's one source of truth about the network.

Whether the audit surface may be served without a token depends on who can connect, and that is a
property of the sockets the server bound, not of a setting that may disagree with them (``HOST``
says 127.0.0.1 while ``uvicorn --host 0.0.0.0`` binds every interface). So the rule asks the
operating system: :func:`listening_addresses` lists the local addresses of this process's listening
TCP sockets on a port (the port a connection arrived on), and :func:`loopback_only` holds when every
one of them is a loopback address and the connection itself arrived on one.

Each of this process's descriptors (``/proc/self/fd``, ``/dev/fd``) is wrapped in a ``socket``
object that is detached again, so the descriptor is never closed or changed; that is done only
while Python has no default socket timeout, since wrapping would otherwise switch the descriptor
to non-blocking. With one set, Linux's socket tables in ``/proc`` are read instead (slower: the
kernel walks them on every read). When the sockets cannot be found out, the answer is "not
loopback only": the audit surface then needs the token.

Worker processes (``--workers N``) inherit the listening socket their parent bound, so each finds it
among its own descriptors.
"""

from __future__ import annotations

import ipaddress
import os
import socket
from pathlib import Path

LOOPBACK_ADDRESSES = frozenset({"127.0.0.1", "::1"})
"""The addresses that count as this machine only (``--host 127.0.0.1``, ``::1``, ``localhost``).
Other 127.0.0.0/8 addresses are left out on purpose: the rule names these two, and the tests use
127.0.0.2 to stand for an address that is not loopback-only."""

_LISTEN = "0A"  # TCP_LISTEN in /proc/net/tcp's state column


def plain_address(address: str) -> str:
    """An address as the loopback rule compares it: ``::ffff:127.0.0.1`` as ``127.0.0.1``, IPv6
    compressed, anything that is not an address as it is."""
    try:
        parsed = ipaddress.ip_address(address.strip("[]").split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    return str(parsed)


def listening_addresses(port: int) -> frozenset[str] | None:
    """The local addresses of this process's listening TCP sockets on ``port`` (empty: none), or
    None when this platform does not let us find out."""
    fds = next((p for p in (Path("/proc/self/fd"), Path("/dev/fd")) if p.is_dir()), None)
    if fds is None:
        return None
    if socket.getdefaulttimeout() is None:
        return _from_descriptors(fds, port)
    if Path("/proc/self/net/tcp").is_file():
        return _from_proc(fds, port)
    return None


def loopback_only(local: tuple[str, int] | list[object] | None) -> bool:
    """Whether a connection whose local (listening) address is ``local`` (ASGI's ``scope["server"]``)
    reached a server that listens on loopback addresses only, on that port."""
    if not local or len(local) != 2:
        return False
    host, port = local[0], local[1]
    if not isinstance(host, str) or not isinstance(port, int):
        return False  # a Unix socket, or a test client with no socket at all
    if plain_address(host) not in LOOPBACK_ADDRESSES:
        return False
    bound = listening_addresses(port)
    return bool(bound) and bound is not None and bound <= LOOPBACK_ADDRESSES


def _from_proc(fds: Path, port: int) -> frozenset[str]:
    inodes = set()
    for entry in _entries(fds):
        try:
            target = os.readlink(fds / entry)
        except OSError:
            continue  # closed meanwhile
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    found = set()
    for table, width in (("tcp", 4), ("tcp6", 16)):
        try:
            lines = Path(f"/proc/self/net/{table}").read_text().splitlines()[1:]
        except OSError:
            continue  # no IPv6 in this kernel
        for line in lines:
            fields = line.split()
            if len(fields) < 10 or fields[3] != _LISTEN or fields[9] not in inodes:
                continue
            address, _, hex_port = fields[1].partition(":")
            if int(hex_port, 16) == port and len(address) == 2 * width:
                found.add(_kernel_address(address))
    return frozenset(found)


def _kernel_address(hex_address: str) -> str:
    """/proc/net/tcp's address column (32-bit words in host byte order) as an address."""
    raw = bytes.fromhex(hex_address)
    words = [raw[i:i + 4] for i in range(0, len(raw), 4)]
    ordered = b"".join(w[::-1] for w in words) if _little_endian() else raw
    return plain_address(str(ipaddress.ip_address(ordered)))


def _little_endian() -> bool:
    import sys

    return sys.byteorder == "little"


def _from_descriptors(fds: Path, port: int) -> frozenset[str]:
    found = set()
    for entry in _entries(fds):
        try:
            sock = socket.socket(fileno=int(entry))
        except (OSError, ValueError):
            continue  # not a socket, or closed meanwhile
        try:
            if (sock.family in (socket.AF_INET, socket.AF_INET6)
                    and sock.type == socket.SOCK_STREAM
                    and sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN)
                    and sock.getsockname()[1] == port):
                found.add(plain_address(sock.getsockname()[0]))
        except OSError:
            pass
        finally:
            sock.detach()  # the descriptor stays open, as its owner left it
    return frozenset(found)


def _entries(fds: Path) -> list[str]:
    try:
        return os.listdir(fds)
    except OSError:
        return []
