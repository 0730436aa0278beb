"""`bones serve` as whoever runs it meets it: Ctrl+C in its terminal stops the server
and its worker processes quietly; its connections wait for a slow network and for the
proxy before it."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from websockets.client import ClientProtocol
from websockets.frames import Close, Opcode
from websockets.uri import parse_uri

from tests.server.live import Server, free_port, sqlite_url


def test_ctrl_c_stops_the_server_and_its_workers_without_tracebacks(tmp_path: Path) -> None:
    """A terminal's Ctrl+C reaches every process of its group: each bot worker printed
    a KeyboardInterrupt traceback of its own."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "bones", "serve", "--port", str(port),
         "--db", sqlite_url(tmp_path / "ctrl-c.db"), "--bot-workers", "2"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/variants", timeout=1).raise_for_status()
            break
        except httpx.HTTPError:
            time.sleep(0.2)
    time.sleep(2)  # the workers are starting (or have started)
    os.killpg(server.pid, signal.SIGINT)  # as a terminal's Ctrl+C does
    _, printed = server.communicate(timeout=60)
    assert b"KeyboardInterrupt" not in printed and b"Traceback" not in printed, printed[-2000:]


def test_an_idle_connection_is_kept_longer_than_a_proxy_keeps_it(server: Server) -> None:
    """nginx keeps an idle connection to the app 60 s and then sends a request on it:
    an app that had closed it at 5 s would meet that request as the connection closes
    (nginx answers a POST so with 502, a client of its own sees it dropped)."""
    host, port = server.url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        for pause in (0, 8):  # 8 s idle: past the 5 s an app's default would keep it
            time.sleep(pause)
            connection.request("GET", "/api/variants")
            answer = connection.getresponse()
            answer.read()
            assert answer.status == 200
    finally:
        connection.close()


def test_a_socket_whose_answers_to_pings_come_late_stays_open(server: Server) -> None:
    """A phone's network stalls for seconds, and a busy machine's client answers late:
    the server pings every 5 s and waits 15 s for the answer, so a socket that answers
    its pings 11 s late is still open (at 5 s it was closed within 10)."""
    protocol = ClientProtocol(parse_uri(f"{server.url.replace('http', 'ws')}/ws/lobby"))
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        protocol.send_request(protocol.connect())
        sock.sendall(b"".join(protocol.data_to_send()))
        while not protocol.events_received():  # the handshake's answer, then the list
            protocol.receive_data(sock.recv(65536))
        time.sleep(11)  # its pings unanswered (the protocol holds the pongs)
        protocol.receive_data(sock.recv(65536))
        sock.sendall(b"".join(protocol.data_to_send()))  # the pongs, late
        sock.settimeout(2)
        frames = []
        try:
            while data := sock.recv(65536):
                protocol.receive_data(data)
                frames += protocol.events_received()
        except TimeoutError:
            pass
    closes = [Close.parse(f.data) for f in frames if f.opcode is Opcode.CLOSE]
    assert closes == [] and protocol.state.name == "OPEN", closes
