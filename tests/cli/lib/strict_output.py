#!/usr/bin/env python3
"""Checks what a memest command printed (the command-line tests use it).

    strict_output.py json FILE [PATH=VALUE ...]
        FILE holds one JSON object and a newline, as strict UTF-8: the bytes
        decode as UTF-8 without error, json.loads takes the text, and no
        string in it holds a lone surrogate (an escape like \\udc80). Each
        PATH=VALUE (a dotted path into the object, list items by index)
        must hold VALUE (a string, or another value as JSON writes it), with \\xNN and \\uNNNN in VALUE read as Python
        reads them ("inputs.model=caf\\ufffd.json").
    strict_output.py text FILE [WORD ...]
        FILE is safe for a terminal: UTF-8, and no C0 control but tab and
        newline, no DEL, no C1 control, no bidi embedding, override,
        isolate or mark, no line or paragraph separator. Each WORD, taken
        as it is ('caf\\xe9' is a backslash, x, e, 9), must be in it.

Prints what is wrong and exits 1, else exits 0 quietly.
"""
import json
import sys

UNSAFE = set(range(0x20)) - {0x09, 0x0A}
UNSAFE |= set(range(0x7F, 0xA0))
UNSAFE |= {0x061C, 0x200E, 0x200F, 0x2028, 0x2029}
UNSAFE |= set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A))


def fail(msg):
    print(msg)
    sys.exit(1)


def strings(v, path=""):
    if isinstance(v, str):
        yield path, v
    elif isinstance(v, dict):
        for k, x in v.items():
            yield from strings(k, path + "<key>")
            yield from strings(x, path + "." + k)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from strings(x, "%s.%d" % (path, i))


def at(obj, path):
    for part in path.split("."):
        obj = obj[int(part)] if isinstance(obj, list) else obj[part]
    return obj


def unescape(s):
    return s.encode("latin-1", "backslashreplace").decode("unicode_escape")


def check_json(data, wants):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        fail("not UTF-8: %s" % e)
    if not text.endswith("\n") or "\n" in text[:-1]:
        fail("not one line ending in a newline: %r" % text[:200])
    try:
        obj = json.loads(text)
    except ValueError as e:
        fail("not JSON: %s: %r" % (e, text[:200]))
    if not isinstance(obj, dict):
        fail("not an object: %r" % text[:200])
    for path, s in strings(obj):
        try:
            s.encode("utf-8")
        except UnicodeEncodeError:
            fail("a lone surrogate in %s: %r" % (path, s))
    for want in wants:
        path, value = want.split("=", 1)
        try:
            got = at(obj, path)
        except (KeyError, IndexError, ValueError, TypeError):
            fail("no %s in %r" % (path, text[:300]))
        if not isinstance(got, str):
            got = json.dumps(got)
        if got != unescape(value):
            fail("%s is %r, expected %r" % (path, got, unescape(value)))


def check_text(data, words):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        fail("not UTF-8: %s" % e)
    for i, ch in enumerate(text):
        if ord(ch) in UNSAFE:
            fail("raw U+%04X at %d: %r" % (ord(ch), i, text[max(0, i - 60):i + 20]))
    for w in words:
        if w not in text:
            fail("missing %r in %r" % (w, text[:400]))


def main():
    mode, path = sys.argv[1], sys.argv[2]
    with open(path, "rb") as f:
        data = f.read()
    if mode == "json":
        check_json(data, sys.argv[3:])
    else:
        check_text(data, sys.argv[3:])


if __name__ == "__main__":
    main()
