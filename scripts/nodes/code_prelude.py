# rodeo's prelude of python nodes. It runs the node's code with two objects in scope:
#   graph.global_variables  a dict of the run's variables; what it holds at the end becomes them
#   thread_signals          notifications.emit(msg) and chat.emit(msg) add events to the run
# Variables come in and go out as JSON files and signals leave as JSON lines on fd 3: nothing of
# them is ever pasted into the code.
import json
import os
import sys
import types


def _rodeo_main():
    main_path, vars_in, vars_out = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(vars_in, encoding="utf-8") as f:
        variables = json.load(f)
    try:
        channel = os.fdopen(3, "w", encoding="utf-8", buffering=1)
    except OSError:
        channel = None

    class Signal:
        def __init__(self, kind):
            self._kind = kind

        def emit(self, message):
            if channel is None:
                return
            text = message if isinstance(message, str) else str(message)
            channel.write(json.dumps({"kind": self._kind, "message": text}) + "\n")
            channel.flush()

    graph = types.SimpleNamespace(global_variables=variables)
    thread_signals = types.SimpleNamespace(notifications=Signal("notification"), chat=Signal("chat"))
    with open(main_path, encoding="utf-8") as f:
        code = compile(f.read(), "<code>", "exec")
    sys.argv = ["<code>"]
    scope = {"__name__": "__main__", "__builtins__": __builtins__, "graph": graph, "thread_signals": thread_signals}
    try:
        exec(code, scope)
    finally:
        with open(vars_out, "w", encoding="utf-8") as f:
            json.dump(graph.global_variables, f, default=str, allow_nan=False)


_rodeo_main()
