#!/usr/bin/env python3
"""Converts public captures of real SAP systems into abapdbg cassettes (docs/cassettes.md).

    scripts/captures-to-cassettes.py --src DIR [--out tests/cassettes/real] [--check]

tests/cassettes/real/sources.json names, per cassette, the repository, its licence and the
files to read, each at the commit it was taken from. DIR holds those files as
DIR/<owner>/<repo>/<path>; fill it from a clone of each repository with

    git -C CLONE show COMMIT:PATH > DIR/<owner>/<repo>/PATH

(tests/cassettes/real/README.md has the loop). Two layouts are read:

* "live-captured": NNN-label.meta.json (method, absolute URL, headers, request body, status,
  response headers, sha256 of the body, duration, time, session name) + NNN-label.xml;
* "corpus": NAME.json ({"request": {...}, "response": {"status", "headers", "bodyFile"}})
  + NAME.body.xml;
* "cassette": NAME.cassette.json, one exchange with its bodies inline ("request": {"method",
  "path" with the query, "headers", "body"}, "response": {...}, "recordedAt").

An exchange's "layout" overrides its cassette's.

Each capture becomes one exchange. Secrets are replaced by the rules `serve --record` applies
(Authorization keeps its scheme only, cookie values and CSRF tokens become stable
REDACTED-… placeholders); headers the source already withheld are left out, and so are
content-encoding, content-length and connection (the bodies are stored decoded). --check
compares instead of writing and exits 1 when a cassette is not what the sources give.
Python 3 standard library only.
"""

import argparse
import calendar
import datetime
import hashlib
import json
import os
import sys
from urllib.parse import urlsplit

FORMAT = "abapdbg-cassette/1"
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "..", "tests", "cassettes", "real")
# Bodies are stored decoded, so what described their encoding on the wire would lie.
DROPPED = {"content-encoding", "content-length", "connection", "transfer-encoding"}
PLAIN_COOKIES = {"sap-usercontext"}


class Redactor:
    """The placeholders of crates/adt/src/cassette.rs: the same value, the same placeholder."""

    def __init__(self):
        self.placeholders = {}
        self.counts = {}

    def placeholder(self, kind, value):
        key = (kind, value)
        if key not in self.placeholders:
            self.counts[kind] = self.counts.get(kind, 0) + 1
            self.placeholders[key] = "REDACTED-%s-%d" % (kind, self.counts[kind])
        return self.placeholders[key]

    def cookie_pair(self, pair):
        if "=" not in pair:
            return pair
        name, value = pair.split("=", 1)
        if name.lower() in PLAIN_COOKIES or value == "":
            return pair
        return "%s=%s" % (name, self.placeholder("cookie", value))

    def header(self, name, value):
        if name in ("authorization", "proxy-authorization"):
            scheme = value.split()[0] if value.split() else ""
            return "%s REDACTED" % scheme
        if name == "cookie":
            return "; ".join(self.cookie_pair(p.strip()) for p in value.split(";"))
        if name == "set-cookie":
            lines = []
            for line in value.split("\n"):
                pair, sep, attrs = line.partition(";")
                lines.append(self.cookie_pair(pair.strip()) + sep + attrs)
            return "\n".join(lines)
        if name == "x-csrf-token":
            if value.lower() in ("fetch", "required"):
                return value
            return self.placeholder("csrf", value)
        return value


def withheld(value):
    """A value the capture's author already replaced (`<redacted>`, `<redacted: 4 cookies>`)."""
    return value.strip().lower().startswith("<redacted")


def headers(raw, redactor):
    out = {}
    for name, value in (raw or {}).items():
        name = name.lower()
        if value is None or name in DROPPED or withheld(str(value)):
            continue
        out[name] = redactor.header(name, str(value))
    return dict(sorted(out.items()))


def read_text(src, repo, path):
    full = os.path.join(src, repo, path)
    try:
        with open(full, "rb") as f:
            data = f.read()
    except OSError as e:
        sys.exit("%s: %s (fill --src as the script's help says)" % (full, e.strerror))
    return data


def body_of(data):
    try:
        return {"text": data.decode("utf-8")}
    except UnicodeDecodeError:
        import base64

        return {"base64": base64.b64encode(data).decode("ascii")}


def epoch_ms(stamp):
    t = datetime.datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%fZ")
    return calendar.timegm(t.timetuple()) * 1000 + t.microsecond // 1000


def session_label(names, name, stateful):
    kind = "stateful" if stateful else "stateless"
    key = (kind, name)
    if key not in names:
        names[key] = sum(1 for k in names if k[0] == kind) + 1
    return "%s-%d" % (kind, names[key])


def live_captured(src, spec, entry, redactor, names, warnings):
    meta_path, _ = entry["meta"]
    meta = json.loads(read_text(src, spec["repository"], meta_path))
    body = b""
    if entry.get("body"):
        body = read_text(src, spec["repository"], entry["body"][0])
        sha = meta.get("sha256")
        if sha and hashlib.sha256(body).hexdigest() != sha:
            warnings.append(
                "%s: the body's sha256 differs from the one its meta records" % entry["body"][0]
            )
    url = urlsplit(meta["requestUrl"])
    req_headers = headers(meta.get("requestHeaders"), redactor)
    stateful = req_headers.get("x-sap-adt-sessiontype", "").lower() == "stateful"
    return {
        "time": epoch_ms(meta["utcTimestamp"]),
        "session": session_label(names, meta.get("sessionName") or "", stateful),
        "method": meta["requestMethod"],
        "path": url.path,
        "query": url.query,
        "request_headers": req_headers,
        "request_body": body_of((meta.get("requestBody") or "").encode("utf-8")),
        "status": meta["responseStatus"],
        "response_headers": headers(meta.get("responseHeaders"), redactor),
        "response_body": body_of(body),
        "duration_ms": int(meta.get("durationMs") or 0),
    }


def corpus(src, spec, entry, redactor, names, warnings):
    meta_path, _ = entry["meta"]
    meta = json.loads(read_text(src, spec["repository"], meta_path))
    req, resp = meta["request"], meta["response"]
    body = b""
    if entry.get("body"):
        body_path = entry["body"][0]
        if resp.get("bodyFile") and not body_path.endswith("/" + resp["bodyFile"]):
            warnings.append("%s: its meta names the body %s" % (meta_path, resp["bodyFile"]))
        body = read_text(src, spec["repository"], body_path)
    url = urlsplit(req.get("effectiveUrl") or req["url"])
    req_headers = headers(req.get("headers"), redactor)
    stateful = req_headers.get("x-sap-adt-sessiontype", "").lower() == "stateful"
    day = datetime.datetime.strptime(meta.get("capturedAt", "1970-01-01"), "%Y-%m-%d")
    return {
        "time": calendar.timegm(day.timetuple()) * 1000,
        "session": session_label(names, meta.get("case") or "", stateful),
        "method": req["method"],
        "path": url.path,
        "query": url.query,
        "request_headers": req_headers,
        "request_body": body_of((req.get("body") or "").encode("utf-8")),
        "status": resp["status"],
        "response_headers": headers(resp.get("headers"), redactor),
        "response_body": body_of(body),
        "duration_ms": 0,
    }


def transcribed(src, spec, entry, redactor, names, warnings):
    meta_path, _ = entry["meta"]
    meta = json.loads(read_text(src, spec["repository"], meta_path))
    req, resp = meta["request"], meta["response"]
    url = urlsplit(req["path"])
    req_headers = headers(req.get("headers"), redactor)
    stateful = req_headers.get("x-sap-adt-sessiontype", "").lower() == "stateful"
    stamp = meta["recordedAt"]
    if "." not in stamp:
        stamp = stamp.replace("Z", ".000Z")
    return {
        "time": epoch_ms(stamp),
        "session": session_label(names, "", stateful),
        "method": req["method"],
        "path": url.path,
        "query": url.query,
        "request_headers": req_headers,
        "request_body": body_of((req.get("body") or "").encode("utf-8")),
        "status": resp["status"],
        "response_headers": headers(resp.get("headers"), redactor),
        "response_body": body_of((resp.get("body") or "").encode("utf-8")),
        "duration_ms": int(meta.get("recordedDurationMs") or 0),
    }


READERS = {"live-captured": live_captured, "corpus": corpus, "cassette": transcribed}


def cassette(src, spec, warnings):
    redactor, names = Redactor(), {}
    exchanges = [
        READERS[e.get("layout", spec["layout"])](src, spec, e, redactor, names, warnings)
        for e in spec["exchanges"]
    ]
    first = min(e["time"] for e in exchanges)
    header = {
        "format": FORMAT,
        "base_url": spec["base_url"],
        "started": first // 1000,
        "users_redacted": False,
        "source": {"repository": spec["repository"], "licence": spec["licence"]},
    }
    lines = [json.dumps(header, ensure_ascii=False, separators=(",", ":"))]
    for i, e in enumerate(exchanges):
        # Captures without times keep their order: one millisecond apart.
        at = e.pop("time") - first
        e = dict({"at_ms": max(at, i)}, **e)
        lines.append(json.dumps(e, ensure_ascii=False, separators=(",", ":"), sort_keys=False))
    return "\n".join(lines) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--src", required=True, help="DIR/<owner>/<repo>/<path> holds the sources")
    p.add_argument("--out", default=DEFAULT_OUT, help="where the cassettes go")
    p.add_argument("--sources", help="the manifest (default: OUT/sources.json)")
    p.add_argument("--check", action="store_true", help="compare, do not write")
    args = p.parse_args()
    manifest_path = args.sources or os.path.join(args.out, "sources.json")
    with open(manifest_path, encoding="utf-8") as f:
        manifest = json.load(f)
    warnings, differs = [], []
    for spec in manifest["cassettes"]:
        text = cassette(args.src, spec, warnings)
        target = os.path.join(args.out, spec["name"] + ".jsonl")
        if args.check:
            try:
                with open(target, encoding="utf-8") as f:
                    if f.read() != text:
                        differs.append(target)
            except OSError:
                differs.append(target)
            continue
        with open(target, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        print("%s: %d exchanges" % (target, len(spec["exchanges"])))
    for w in warnings:
        print("warning: " + w, file=sys.stderr)
    if differs:
        print("not what the sources give: " + ", ".join(differs), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
