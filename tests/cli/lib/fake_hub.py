"""A stand-in for the Hugging Face hub on a free loopback port, for tests/cli/hub.sh.

Usage: python3 fake_hub.py CONFIG LOG PORT_FILE
Serves CONFIG (a model's config.json) under /<org>/<name>/resolve/main/config.json
for the models below, each answering as the hub does in one situation. It appends
one line per request to LOG ("<path> <authorization or -> <host>") and writes its
port to PORT_FILE once it listens. Runs until killed.
"""
import http.server
import os
import sys
import time

COMMIT = "0123456789abcdef0123456789abcdef01234567"
RENAMED_COMMIT = "89abcdef0123456789abcdef0123456789abcdef"
TOKEN = "hf_fake_token_for_tests_only"
SUFFIX = "/resolve/main/config.json"
LONG_ETAG = {"test-org/Long-Etag-A": "e" * 64 + "A" * 36, "test-org/Long-Etag-B": "e" * 64 + "B" * 36}
ODD_ETAG = "ab+/cd=="

config = open(sys.argv[1], "rb").read()
log_path = sys.argv[2]


class Hub(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body=b"", headers=()):
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        if not any(k.lower() == "transfer-encoding" for k, _ in headers):
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body and not any(k.lower() == "transfer-encoding" for k, _ in headers):
            self.wfile.write(body)

    def error(self, status, code, message):
        body = ('{"error": "%s"}' % message).encode()
        self.send(status, body, [("X-Error-Code", code), ("X-Error-Message", message),
                                 ("Content-Type", "application/json")])

    def config(self, commit=COMMIT, etag='"cafe0123"', body=None):
        headers = [("Content-Type", "application/json")]
        if commit:
            headers.append(("X-Repo-Commit", commit))
        if etag:
            headers.append(("ETag", etag))
        self.send(200, config if body is None else body, headers)

    def do_GET(self):
        auth = self.headers.get("Authorization") or "-"
        with open(log_path, "a") as f:
            f.write("%s %s %s\n" % (self.path, auth.replace(" ", "_"), self.headers.get("Host")))
        path = self.path
        model = path[1:-len(SUFFIX)] if path.endswith(SUFFIX) else None
        port = self.server.server_address[1]
        if model == "test-org/Found-MoE":
            self.config()
        elif model == "test-org/Missing":
            self.error(404, "RepoNotFound", "Repository not found")
        elif model == "test-org/No-Config":
            self.error(404, "EntryNotFound", "Entry not found")
        elif model == "test-org/Gated-MoE":
            if auth == "-":
                self.error(401, "GatedRepo", "Access to model test-org/Gated-MoE is restricted")
            elif auth != "Bearer " + TOKEN:
                self.error(403, "GatedRepo", "Access to model test-org/Gated-MoE is restricted")
            else:
                self.config()
        elif model == "test-org/Old-Name":
            # A renamed repo: 307 to its new name (relative, same host) ...
            self.send(307, b"", [("Location", "/test-org/New-Name" + SUFFIX)])
        elif model == "test-org/New-Name":
            # ... whose answer names the commit and sends the file to the store.
            self.send(302, b"", [("Location", "/store/" + RENAMED_COMMIT + "/config.json"),
                                 ("X-Repo-Commit", RENAMED_COMMIT)])
        elif path == "/store/" + RENAMED_COMMIT + "/config.json":
            self.config(commit=None, etag='"store-etag"')
        elif model == "test-org/Other-Host":
            # To another host name for the same server: the token must not follow.
            self.send(302, b"", [("Location", "http://localhost:%d/elsewhere/config.json" % port),
                                 ("X-Repo-Commit", COMMIT)])
        elif path == "/elsewhere/config.json":
            self.config(commit=None)
        elif model == "test-org/Other-Host-Gated":
            # To another host that asks for credentials: the token was rightly not sent there.
            self.send(302, b"", [("Location", "http://localhost:%d/elsewhere-gated/config.json" % port)])
        elif path == "/elsewhere-gated/config.json":
            self.error(401, "Unauthorized", "Signature expired")
        elif model == "test-org/Renamed-Gated":
            # A renamed gated repo: 307 on the same host, where the token goes too.
            self.send(307, b"", [("Location", "/test-org/Gated-Target" + SUFFIX)])
        elif model == "test-org/Gated-Target":
            if auth != "Bearer " + TOKEN:
                self.error(401, "GatedRepo", "Invalid credentials")
            else:
                self.config()
        elif model == "test-org/Userinfo-Redirect":
            # A Location with a user name and password in it, to a missing model.
            self.send(302, b"", [("Location", "http://bob:hunter2@127.0.0.1:%d/test-org/Missing%s" % (port, SUFFIX))])
        elif model == "test-org/To-File":
            self.send(302, b"", [("Location", "file:///etc/passwd")])
        elif model == "test-org/Big-Header":
            # One response header of 200 KiB.
            self.send(200, config, [("X-Repo-Commit", COMMIT), ("X-Padding", "a" * (200 * 1024))])
        elif model in ("test-org/Long-Etag-A", "test-org/Long-Etag-B"):
            # ETags of 100 characters that share their first 64.
            self.config(commit=None, etag='"%s"' % LONG_ETAG[model])
        elif model == "test-org/Odd-Etag":
            self.config(commit=None, etag='"%s"' % ODD_ETAG)
        elif model == "test-org/Slowish":
            time.sleep(0.5)
            self.config()
        elif model == "test-org/Slow":
            time.sleep(10)
            self.config()
        elif model == "test-org/Huge":
            self.config(body=b" " * (2 * 1024 * 1024))
        elif model == "test-org/Huge-Chunked":
            # No Content-Length: the size shows only as the bytes arrive.
            self.send(200, b"", [("Transfer-Encoding", "chunked"), ("X-Repo-Commit", COMMIT)])
            chunk = b" " * 65536
            try:
                for _ in range(40):
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                self.wfile.write(b"0\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                pass
        elif model == "test-org/Not-Json":
            self.config(body=b"<html><body>Sign in to the network</body></html>")
        elif model == "test-org/No-Revision":
            self.config(commit=None, etag=None)
        elif model == "test-org/Etag-Only":
            self.config(commit=None, etag='W/"abc123"')
        elif model == "test-org/Loop":
            self.send(302, b"", [("Location", path)])
        elif model == "test-org/Broken":
            self.error(500, "Internal", "Internal Error")
        else:
            self.error(404, "RepoNotFound", "Repository not found")


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass   # a client that hangs up early (a body over its limit) is expected


server = Server(("127.0.0.1", 0), Hub)
with open(sys.argv[3] + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(sys.argv[3] + ".tmp", sys.argv[3])
server.serve_forever()
