#!/usr/bin/env python3
"""A scripted model for tests/integration/codex.sh: just enough of the
Responses API (streamed as server-sent events) for `codex exec` to run one
shell command and finish.

Usage: fake-openai.py PORTFILE LOGFILE COMMAND
A request without a function_call_output gets a call of the shell tool it
offers (exec_command, shell_command or shell) running COMMAND; the one
carrying the output gets a closing message. Every request body is appended
to LOGFILE, one JSON object a line."""
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

port_file, log_file, command = sys.argv[1], sys.argv[2], sys.argv[3]


def tool_names(body):
    return [t.get("name") for t in body.get("tools") or [] if isinstance(t, dict)]


def has_output(body):
    return any(isinstance(i, dict) and i.get("type") == "function_call_output" for i in body.get("input") or [])


def shell_call(names):
    if "exec_command" in names:
        return "exec_command", {"cmd": command}
    if "shell_command" in names:
        return "shell_command", {"command": command}
    return "shell", {"command": ["bash", "-lc", command]}


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
        events = [{"type": "response.created", "response": {"id": "resp_fake"}}]
        if names and not has_output(body):
            name, args = shell_call(names)
            item = {"type": "function_call", "name": name, "arguments": json.dumps(args), "call_id": "call_fake1"}
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
