#!/usr/bin/env python3
# A registry stub for npm: serves one package, tiny-hide-check 1.0.0
# (index.js exports 42). Usage: npm_registry.py ADDRESS PORTFILE LOG
# listens on ADDRESS at a port the kernel picks, written to PORTFILE; each
# request is logged as "PATH AUTHORIZATION" lines to LOG, so that a test
# judges from outside what reached the registry (and with which token).
import hashlib, http.server, io, json, sys, tarfile
pkg = json.dumps({"name": "tiny-hide-check", "version": "1.0.0", "main": "index.js"}).encode()
buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w:gz") as t:
    for name, data in (("package/package.json", pkg), ("package/index.js", b"module.exports = 42;\n")):
        info = tarfile.TarInfo(name); info.size = len(data); t.addfile(info, io.BytesIO(data))
tgz = buf.getvalue()
log = open(sys.argv[3], "a")
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_GET(self):
        log.write("%s %s\n" % (self.path, self.headers.get("Authorization"))); log.flush()
        port = self.server.server_address[1]
        if self.path.endswith(".tgz"):
            body, kind = tgz, "application/octet-stream"
        elif self.path.strip("/") == "tiny-hide-check":
            body = json.dumps({"name": "tiny-hide-check", "dist-tags": {"latest": "1.0.0"}, "versions": {"1.0.0": {
                "name": "tiny-hide-check", "version": "1.0.0", "dist": {
                    "tarball": "http://%s:%d/tiny-hide-check-1.0.0.tgz" % (self.server.server_address[0], port),
                    "shasum": hashlib.sha1(tgz).hexdigest()}}}}).encode()
            kind = "application/json"
        else:
            self.send_response(404); self.end_headers(); return
        self.send_response(200); self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
s = http.server.HTTPServer((sys.argv[1], 0), H)
open(sys.argv[2], "w").write(str(s.server_address[1]))
s.serve_forever()
