#!/usr/bin/env python3
"""A scripted model for tests/integration/codex.sh: just enough of the
Responses API (streamed as server-sent events) for `codex exec` to run a
few shell commands in turn and finish.

Usage: fake-openai.py PORTFILE LOGFILE SCRIPT
       fake-openai.py --result LOGFILE N
SCRIPT holds the commands, one JSON value a line: a string (the command)
or an object {"cmd": ..., "workdir": ...}; it is read again for every
request, so one server serves every run of a suite. A request that offers
a shell tool (exec_command, shell_command or shell) and carries N
function_call_outputs gets a call of it running the command on line N + 1
(call_id call_fakeN+1); once every command has its output, a closing
message, FAKE-DONE. Every request body is appended to LOGFILE, one JSON
object a line. --result prints what Codex sent back for command N (from
1), from the last request that carries it."""
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def outputs(body):
    """The function_call_output items of a request, by call_id."""
    return {i.get("call_id"): i for i in body.get("input") or []
            if isinstance(i, dict) and i.get("type") == "function_call_output"}


if sys.argv[1] == "--result":
    want = "call_fake%s" % sys.argv[3]
    found = None
    for line in open(sys.argv[2]):
        item = outputs(json.loads(line)["body"]).get(want)
        if item:
            found = item
    if found is None:
        sys.exit(1)
    out = found.get("output")
    print(out if isinstance(out, str) else json.dumps(out))
    sys.exit(0)

port_file, log_file, script_file = sys.argv[1], sys.argv[2], sys.argv[3]


def script():
    with open(script_file) as f:
        return [json.loads(line) for line in f if line.strip()]


def tool_names(body):
    return [t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)]


def shell_call(names, step):
    step = step if isinstance(step, dict) else {"cmd": step}
    command = step["cmd"]
    extra = {"workdir": step["workdir"]} if "workdir" in step else {}
    if "exec_command" in names:
        # the longest wait Codex allows before it answers "still running":
        # a question at the approver takes a while
        return "exec_command", dict({"cmd": command, "yield_time_ms": 30000}, **extra)
    if "shell_command" in names:
        return "shell_command", dict({"command": command}, **extra)
    return "shell", dict({"command": ["bash", "-lc", command]}, **extra)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        data = b'{"models": []}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            body = {}
        with open(log_file, "a") as f:
            f.write(json.dumps({"path": self.path, "body": body}) + "\n")
        names = tool_names(body)
        done = len(outputs(body))
        steps = script()
        events = [{"type": "response.created", "response": {"id": "resp_fake"}}]
        if names and done < len(steps):
            name, args = shell_call(names, steps[done])
            item = {"type": "function_call", "name": name, "arguments": json.dumps(args),
                    "call_id": "call_fake%d" % (done + 1)}
        else:
            item = {"type": "message", "role": "assistant", "id": "msg_fake",
                    "content": [{"type": "output_text", "text": "FAKE-DONE"}]}
        events.append({"type": "response.output_item.done", "item": item})
        events.append({"type": "response.completed",
                       "response": {"id": "resp_fake",
                                    "usage": {"input_tokens": 1, "input_tokens_details": None,
                                              "output_tokens": 1, "output_tokens_details": None,
                                              "total_tokens": 2}}})
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        for e in events:
            self.wfile.write(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode())
            self.wfile.flush()
        self.close_connection = True


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(port_file + ".tmp", port_file)  # the port appears whole
server.serve_forever()
