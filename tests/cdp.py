"""Headless Chromium driven over its DevTools protocol on loopback: keys pressed and clicks made
as a reader would, and the page's state read back (for the static site's game pages)."""

from __future__ import annotations

import itertools
import json
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

KEYS = {  # key: (code, Windows virtual key code, text typed)
    "ArrowRight": ("ArrowRight", 39, ""),
    "ArrowLeft": ("ArrowLeft", 37, ""),
    "Enter": ("Enter", 13, "\r"),
    "Tab": ("Tab", 9, ""),
    " ": ("Space", 32, " "),
    "ArrowDown": ("ArrowDown", 40, ""),
}


class Browser:
    def __init__(self, chromium: str, url: str, profile: Path) -> None:
        self.process = subprocess.Popen(
            [
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--remote-debugging-port=0",
                f"--user-data-dir={profile}",
                url,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while not port_file.exists() or not port_file.read_text().strip():
            assert time.monotonic() < deadline, "Chromium did not open its DevTools port"
            time.sleep(0.1)
        port = port_file.read_text().split()[0]
        for _ in range(100):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list") as answer:
                pages = [t for t in json.load(answer) if t["type"] == "page"]
            if pages:
                break
            time.sleep(0.1)
        self.socket = connect(pages[0]["webSocketDebuggerUrl"], max_size=None)
        self.ids = itertools.count(1)

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        n = next(self.ids)
        self.socket.send(json.dumps({"id": n, "method": method, "params": params}))
        while True:
            reply = json.loads(self.socket.recv())
            if reply.get("id") == n:
                assert "error" not in reply, reply
                return reply.get("result", {})

    def value(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result["result"].get("value")

    def wait_for(self, expression: str) -> None:
        deadline = time.monotonic() + 30
        while not self.value(expression):
            assert time.monotonic() < deadline, expression
            time.sleep(0.1)

    def press(self, key: str) -> None:
        if key in KEYS:
            code, vk, text = KEYS[key]
        else:  # a letter or a digit
            code = f"Key{key.upper()}" if key.isalpha() else f"Digit{key}"
            vk, text = ord(key.upper()), key
        common = {"key": key, "code": code, "windowsVirtualKeyCode": vk}
        self.call("Input.dispatchKeyEvent", type="keyDown", text=text, **common)
        self.call("Input.dispatchKeyEvent", type="keyUp", **common)

    def click(self, selector: str) -> None:
        self.value(f"document.querySelector({json.dumps(selector)}).click()")

    def close(self) -> None:
        self.socket.close()
        self.process.terminate()
        self.process.wait(timeout=30)
