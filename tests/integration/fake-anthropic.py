#!/usr/bin/env python3
"""A scripted model for tests/integration/claude-code.sh: just enough of the
Messages API (streamed as server-sent events) for `claude -p` to run a few
Bash commands in turn and finish.

Usage: fake-anthropic.py PORTFILE LOGFILE SCRIPT
       fake-anthropic.py --result LOGFILE N
SCRIPT holds the commands, one JSON string a line; it is read again for
every request, so one server serves every run of a suite. A request that
offers the Bash tool and carries N tool_results gets a tool_use of the
command on line N + 1 (id toolu_fakeN+1); once every command has its
result, a closing text, FAKE-DONE. Any other request (titles, summaries)
gets a short text. Every request body is appended to LOGFILE, one JSON
object a line. --result prints what the client sent back for command N
(from 1), from the last request that carries it."""
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def tool_results(body):
    """The tool_result blocks of a request, by tool_use_id."""
    out = {}
    for msg in body.get("messages", []):
        content = msg.get("content")
        if isinstance(content, list):
            for block in content:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    out[block.get("tool_use_id")] = block
    return out


def result_text(block):
    c = block.get("content")
    if isinstance(c, str):
        return c
    return "\n".join(x.get("text", "") for x in c or [] if isinstance(x, dict))


if sys.argv[1] == "--result":
    want = "toolu_fake%s" % sys.argv[3]
    found = None
    for line in open(sys.argv[2]):
        block = tool_results(json.loads(line)["body"]).get(want)
        if block:
            found = block
    if found is None:
        sys.exit(1)
    print(result_text(found))
    sys.exit(0)

port_file, log_file, script_file = sys.argv[1], sys.argv[2], sys.argv[3]


def script():
    with open(script_file) as f:
        return [json.loads(line) for line in f if line.strip()]


def offers_bash(body):
    return any(isinstance(t, dict) and t.get("name") == "Bash" for t in body.get("tools", []) or [])


def events(body):
    """The blocks of the answer, as (type, payload) pairs."""
    usage = {"input_tokens": 10, "output_tokens": 1}
    start = {"type": "message_start",
             "message": {"id": "msg_fake", "type": "message", "role": "assistant",
                         "model": body.get("model", "fake"), "content": [],
                         "stop_reason": None, "stop_sequence": None, "usage": usage}}
    out = [("message_start", start)]
    done = len(tool_results(body))
    steps = script()
    if offers_bash(body) and done < len(steps):
        args = json.dumps({"command": steps[done], "description": "the test's command %d" % (done + 1)})
        out += [("content_block_start", {"type": "content_block_start", "index": 0,
                                         "content_block": {"type": "tool_use", "id": "toolu_fake%d" % (done + 1),
                                                           "name": "Bash", "input": {}}}),
                ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                         "delta": {"type": "input_json_delta", "partial_json": args}}),
                ("content_block_stop", {"type": "content_block_stop", "index": 0})]
        stop = "tool_use"
    else:
        text = "FAKE-DONE" if done else "ok"
        out += [("content_block_start", {"type": "content_block_start", "index": 0,
                                         "content_block": {"type": "text", "text": ""}}),
                ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                         "delta": {"type": "text_delta", "text": text}}),
                ("content_block_stop", {"type": "content_block_stop", "index": 0})]
        stop = "end_turn"
    out += [("message_delta", {"type": "message_delta",
                               "delta": {"stop_reason": stop, "stop_sequence": None},
                               "usage": {"output_tokens": 5}}),
            ("message_stop", {"type": "message_stop"})]
    return out


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply_json(self, code, obj):
        data = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.reply_json(404, {"type": "error", "error": {"type": "not_found_error", "message": self.path}})

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        with open(log_file, "a") as f:
            f.write(json.dumps({"path": self.path, "body": body}) + "\n")
        if not self.path.startswith("/v1/messages") or "count_tokens" in self.path:
            self.reply_json(200, {"input_tokens": 10} if "count_tokens" in self.path else {})
            return
        evs = events(body)
        if not body.get("stream"):
            msg = evs[0][1]["message"]
            block = evs[1][1]["content_block"]
            delta = evs[2][1]["delta"]
            if block["type"] == "tool_use":
                block = dict(block, input=json.loads(delta["partial_json"]))
            else:
                block = dict(block, text=delta["text"])
            self.reply_json(200, dict(msg, content=[block], stop_reason=evs[-2][1]["delta"]["stop_reason"]))
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        for name, payload in evs:
            self.wfile.write(f"event: {name}\ndata: {json.dumps(payload)}\n\n".encode())
            self.wfile.flush()
        self.close_connection = True


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(port_file + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))

os.rename(port_file + ".tmp", port_file)
server.serve_forever()
