"""What the full-stack benchmarks share: their own database, a free port, and one HTTP/1.1
exchange on a kept-alive connection (no client library: the asyncio streams cost little
beside the server, and the benchmarks read exactly what they count)."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from dataclasses import dataclass, field


def create_database(url: str) -> None:
    """Create the database ``url`` names if it does not exist yet."""
    import psycopg

    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')


def prepare_database_and_django(env: dict[str, str], root: str) -> None:
    """Take ``env`` as this process's environment (tasks eager: the set-up runs here), create
    and migrate its database, and set Django up."""
    os.environ.update(env)
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"  # this process's own set-up only
    create_database(env["DATABASE_URL"])
    command = [sys.executable, "manage.py", "migrate", "--noinput", "-v0"]
    subprocess.run(command, env=env, cwd=root, check=True)
    import django

    django.setup()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get_request(path: str, cookie: str | None = None) -> bytes:
    """A GET as a browser on a kept-alive connection sends it (without compression)."""
    cookie_line = f"Cookie: {cookie}\r\n" if cookie else ""
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{cookie_line}\r\n".encode()


@dataclass
class Answer:
    status: int
    headers: dict[str, str] = field(default_factory=dict)  # names in lower case
    size: int = 0  # the body's bytes (as sent: chunked or not, without the chunks' framing)


async def exchange(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes
) -> Answer:
    """Send one whole HTTP/1.1 request on a kept-alive connection and read its answer."""
    writer.write(request)
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    answer = Answer(int(lines[0].split(" ", 2)[1]))
    answer.headers = {
        k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)
    }
    if "content-length" in answer.headers:
        answer.size = int(answer.headers["content-length"])
        await reader.readexactly(answer.size)
    elif answer.headers.get("transfer-encoding", "").lower() == "chunked":
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
            await reader.readexactly(size + 2)
            answer.size += size
            if size == 0:
                break
    return answer
