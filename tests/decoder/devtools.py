# SPDX-License-Identifier: GPL-2.0
"""Headless Chromium driven over the DevTools protocol on a pipe
(--remote-debugging-pipe: NUL-terminated JSON on fds 3 and 4), with the
standard library only: what the browser tests of fgdecode's views share
(flamegraph_browser.py, perf_script_browser.py)."""
import base64
import json
import os
import subprocess


class Browser:
    """Chromium with the DevTools protocol on a pipe."""

    def __init__(self, chromium, profile):
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()
        # The child's fds 3 (commands) and 4 (replies); moved out of the
        # way first, as either pipe end may already be fd 3 or 4.
        def child_fds():
            r, w = os.dup(to_r), os.dup(from_w)
            os.dup2(r, 3)
            os.dup2(w, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)
        self.proc = subprocess.Popen(
            [chromium, "--headless=new", "--no-sandbox", "--disable-gpu",
             "--remote-debugging-pipe", "--no-first-run",
             "--hide-scrollbars", "--user-data-dir=" + profile,
             "about:blank"],
            preexec_fn=child_fds, close_fds=False,
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(profile, "stderr"), "w"))
        os.close(to_r)
        os.close(from_w)
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.replies = {}
        self.session = None

    def open(self, url, width, height):
        """A new page of WIDTH x HEIGHT, the session's, navigating to URL
        (Page and Runtime events enabled; wait for what the caller needs)."""
        target = self.call("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True},
                                 session=False)["sessionId"]
        self.call("Page.enable")
        self.call("Runtime.enable")
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        self.call("Page.navigate", {"url": url})

    def close(self):
        try:
            self.call("Browser.close", session=False)
        except Exception:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()

    def _read(self):
        while b"\0" not in self.buf:
            chunk = os.read(self.from_r, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=True):
        """Send a command; return its id (for reply())."""
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.to_w, json.dumps(msg).encode() + b"\0")
        return self.next_id

    def _pump(self):
        m = self._read()
        if "id" in m:
            self.replies[m["id"]] = m
        else:
            self.events.append(m)

    def reply(self, id_, method=""):
        while id_ not in self.replies:
            self._pump()
        m = self.replies.pop(id_)
        if "error" in m:
            raise RuntimeError(f"{method}: {m['error']}")
        return m.get("result", {})

    def call(self, method, params=None, session=True):
        return self.reply(self.send(method, params, session), method)

    def wait_event(self, method):
        while True:
            for i, m in enumerate(self.events):
                if m["method"] == method:
                    return self.events.pop(i)
            self._pump()

    def eval(self, expr):
        r = self.call("Runtime.evaluate", {"expression": expr, "returnByValue": True})
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expr}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def click(self, x, y, wait=True):
        """A left click at (x, y); without wait, the id of the release,
        whose reply comes only once a dialog it opens is closed."""
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            id_ = self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y,
                                                         "button": "left", "clickCount": 1})
            if wait or kind != "mouseReleased":
                self.reply(id_, kind)
        return id_

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
