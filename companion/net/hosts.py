"""The addresses the app answers to: this machine's own names, checked in every request's Host header."""

from __future__ import annotations

import contextlib
import ipaddress
import socket

WILDCARD_HOSTS = frozenset({"", "0.0.0.0", "::", "*"})
"""Bind addresses that mean every address of this machine."""
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})


IPV6_SOURCE_PREFIX = 64
"""The IPv6 addresses one device or home may use: a network hands each of its links a /64, and a device
picks addresses in it at will (privacy addresses), so one phone can be thousands of addresses."""


def _ip(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address a client connected from; an IPv4 client of an IPv6 socket (`--host ::`), which arrives as
    `::ffff:127.0.0.1`, is its IPv4 address. None when it is not an address."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def is_loopback(address: str) -> bool:
    """True for an address of this machine alone (127.0.0.1, ::1, and 127.0.0.1 seen through an IPv6 socket):
    the app's own device."""
    ip = _ip(address)
    return ip.is_loopback if ip is not None else address == "localhost"


def source_of(address: str) -> str:
    """Who a client is, as far as counting its tries goes: its IPv4 address, or the /64 network of its IPv6
    address (see `IPV6_SOURCE_PREFIX`)."""
    ip = _ip(address)
    if isinstance(ip, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((ip, IPV6_SOURCE_PREFIX), strict=False))
    return str(ip) if ip is not None else address


def serves_beyond_loopback(host: str) -> bool:
    """True when the app listens where other devices can reach it (then it makes a table code)."""
    return host in WILDCARD_HOSTS or not is_loopback(host)


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback, best effort (no packet is sent)."""
    found: set[str] = set()
    for target in ("192.168.0.1", "10.255.255.255", "172.16.0.1"):
        # connect() on UDP only picks the interface a packet would leave by; nothing is sent.
        with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect((target, 9))
            found.add(probe.getsockname()[0])
    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.add(str(info[4][0]))
    return sorted(a for a in found if not is_loopback(a) and a != "0.0.0.0")


def allowed_hostnames(bind_host: str, extra: tuple[str, ...] = ()) -> frozenset[str]:
    """The names a request may give in its Host header: loopback, plus the LAN addresses and the
    machine's name when serving every address, or the one address given. Anything else is a page of
    another site pointing at us (DNS rebinding), and is refused."""
    names = set(LOOPBACK_NAMES)
    if bind_host in WILDCARD_HOSTS:
        names.update(lan_addresses())
        hostname = socket.gethostname().lower()
        names.update({hostname, f"{hostname}.local"})
    else:
        names.add(bind_host.lower())
    names.update(h.lower() for h in extra)
    return frozenset(names)


def split_host(value: str) -> tuple[str, int | None]:
    """`a:1` → (`a`, 1); `[::1]:1` → (`::1`, 1); `a` → (`a`, None). `ValueError` when it is not a host."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.index("]")
        name, rest = value[1:end], value[end + 1:]
        if rest and not rest.startswith(":"):
            raise ValueError(value)
        port = rest[1:] if rest else None
    elif value.count(":") == 1:
        name, port = value.split(":")
    elif ":" in value:
        raise ValueError(value)  # a bare IPv6 address must be in brackets
    else:
        name, port = value, None
    if not name or (port is not None and not (port.isascii() and port.isdigit() and len(port) <= 5)):
        raise ValueError(value)
    return name, (int(port) if port is not None else None)


def join_address(bind_host: str, port: int) -> str:
    """The address a phone opens: the first LAN address when serving every address, else the one given."""
    host = bind_host
    if bind_host in WILDCARD_HOSTS:
        host = (lan_addresses() or ["127.0.0.1"])[0]
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"
