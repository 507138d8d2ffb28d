#!/usr/bin/env python3
# A tiny Chrome DevTools Protocol client over --remote-debugging-pipe (fd 3: to Chromium, fd 4: from it).
# Usage: html_cdp.py CHROMIUM PAGE.html SHOT.png JS-EXPRESSION...
# Loads the page in headless Chromium, waits for its load event, evaluates each expression after the page's
# own script ran, saves a screenshot, and prints one JSON object: {"results": [...], "errors": [...],
# "dialogs": [...]}. errors: console errors, uncaught exceptions and log entries of level error.
# KF_CDP_NOJS=1: the page's scripts do not run (the expressions still do). KF_CDP_SHOT_OF=SELECTOR: the screenshot
# is of that element only, however far down the page it is.
import base64
import fcntl
import json
import os
import select
import subprocess
import sys
import tempfile
import time

TIMEOUT = int(os.environ.get("KF_CDP_TIMEOUT", "60"))


def main():
    chromium, page, shot, exprs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    # Chromium reads fd 3 and writes fd 4. The pipes are moved above 10 first, so that placing its ends on
    # 3 and 4 overwrites none of them.
    profile = tempfile.mkdtemp(prefix="kf-cdp.")
    raw = list(os.pipe()) + list(os.pipe())
    fds = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in raw]
    for fd in raw:
        os.close(fd)
    to_r, to_w, from_r, from_w = fds
    os.dup2(to_r, 3, inheritable=True)
    os.dup2(from_w, 4, inheritable=True)
    proc = subprocess.Popen(
        [chromium, "--headless", "--disable-gpu", "--no-sandbox", "--remote-debugging-pipe",
         "--no-first-run", "--user-data-dir=" + profile, "about:blank"],
        pass_fds=(3, 4), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for fd in (3, 4, to_r, from_w):
        os.close(fd)
    out = os.fdopen(to_w, "wb", buffering=0)
    inp = os.fdopen(from_r, "rb", buffering=0)
    buf = b""
    seq = [0]
    events = []
    deadline = time.monotonic() + TIMEOUT

    def read_msg():
        nonlocal buf
        while b"\0" not in buf:
            if time.monotonic() > deadline:
                raise TimeoutError("chromium did not answer in %d s" % TIMEOUT)
            if not select.select([inp], [], [], max(0.0, deadline - time.monotonic()))[0]:
                continue
            chunk = inp.read(65536)
            if not chunk:
                raise EOFError("chromium closed the pipe")
            buf += chunk
        msg, buf = buf.split(b"\0", 1)
        return json.loads(msg)

    def send(method, params=None, session=None, wait=True):
        seq[0] += 1
        m = {"id": seq[0], "method": method, "params": params or {}}
        if session:
            m["sessionId"] = session
        out.write(json.dumps(m).encode() + b"\0")
        while wait:
            r = read_msg()
            if r.get("id") == seq[0]:
                if "error" in r:
                    raise RuntimeError("%s: %s" % (method, r["error"]))
                return r.get("result", {})
            events.append(r)

    def wait_event(name):
        for i, e in enumerate(events):
            if e.get("method") == name:
                return events.pop(i)
        while True:
            e = read_msg()
            if os.environ.get("KF_CDP_DEBUG"):
                print(json.dumps(e)[:200], file=sys.stderr)
            if e.get("method") == name:
                return e
            if e.get("method") == "Page.javascriptDialogOpening":  # a dialog blocks the page: note, dismiss
                dialogs.append(e["params"].get("message"))
                send("Page.handleJavaScriptDialog", {"accept": True}, session=e.get("sessionId"))
                continue
            events.append(e)

    errors, dialogs, results = [], [], []
    try:
        target = send("Target.createTarget", {"url": "about:blank"})["targetId"]
        s = send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            send(domain + ".enable", session=s)
        send("Emulation.setDeviceMetricsOverride",
             {"width": 1280, "height": 1600, "deviceScaleFactor": 1, "mobile": False}, session=s)
        if os.environ.get("KF_CDP_NOJS"):  # the page as a reader without JavaScript sees it
            send("Emulation.setScriptExecutionDisabled", {"value": True}, session=s)
        send("Page.navigate", {"url": "file://" + os.path.abspath(page)}, session=s)
        wait_event("Page.loadEventFired")
        for x in exprs:
            r = send("Runtime.evaluate", {"expression": x, "returnByValue": True}, session=s)
            if "exceptionDetails" in r:
                errors.append("evaluating %s: %s" % (x, r["exceptionDetails"].get("text")))
                results.append(None)
            else:
                results.append(r["result"].get("value"))
        shot_params = {"format": "png"}
        if os.environ.get("KF_CDP_SHOT_OF"):
            # the viewport first made as tall as the page, so that the element is measured in the layout shot
            h = send("Runtime.evaluate", {"expression": "document.documentElement.scrollHeight",
                                          "returnByValue": True}, session=s)["result"]["value"]
            send("Emulation.setDeviceMetricsOverride",
                 {"width": 1280, "height": min(int(h), 16000), "deviceScaleFactor": 1, "mobile": False}, session=s)
            r = send("Runtime.evaluate", {"expression": "(function(){var r=document.querySelector(%s)"
                                          ".getBoundingClientRect();return [r.left+scrollX,r.top+scrollY,r.width,"
                                          "r.height];})()" % json.dumps(os.environ["KF_CDP_SHOT_OF"]),
                                          "returnByValue": True}, session=s)
            x, y, w, h = r["result"]["value"]
            shot_params.update(clip={"x": x, "y": y, "width": w, "height": h, "scale": 1})
        png = send("Page.captureScreenshot", shot_params, session=s)["data"]
        with open(shot, "wb") as f:
            f.write(base64.b64decode(png))
        for e in events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                errors.append("exception: " + json.dumps(p.get("exceptionDetails", {}).get("exception", {})
                                                         .get("description") or p.get("exceptionDetails")))
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                errors.append("console: " + json.dumps([a.get("value") for a in p.get("args", [])]))
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                errors.append("log: " + p["entry"].get("text", ""))
        send("Browser.close", wait=False)
    finally:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        subprocess.run(["rm", "-rf", profile])
    print(json.dumps({"results": results, "errors": errors, "dialogs": dialogs}))


if __name__ == "__main__":
    main()
