"""Serves the servicer of Selu's first-party pdf agent (selu-bot/selu-agent-pdf, Python + ReportLab) on a free
loopback port for the side-by-side bench, and prints the port. The peer's source is not part of this repository:
argv[2] names its server.py. Its message classes are generated here from our copy of the contract, which has
the same package, service and field numbers as the peer's (shared/selu-contract.md, section 1).

usage: python3 serve.py <dir of capability.proto> <peer server.py>
"""

import importlib.util
import os
import sys
import tempfile
from concurrent import futures

from grpc_tools import protoc

proto_dir, server_py = sys.argv[1], sys.argv[2]
generated = tempfile.mkdtemp(prefix="peer-pdf-")
if protoc.main(["protoc", f"-I{proto_dir}", f"--python_out={generated}", f"--grpc_python_out={generated}", os.path.join(proto_dir, "capability.proto")]) != 0:
    sys.exit("protoc failed")
sys.path.insert(0, generated)

import grpc  # noqa: E402
import capability_pb2_grpc  # noqa: E402

spec = importlib.util.spec_from_file_location("peer_pdf_server", server_py)
peer = importlib.util.module_from_spec(spec)
spec.loader.exec_module(peer)

# The peer's own serve() binds the fixed port 50051; the bench needs a free one, so it is wired here the same way
# (a 4-thread pool, as the peer's serve() has).
server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
capability_pb2_grpc.add_CapabilityServicer_to_server(peer.CapabilityServicer(), server)
port = server.add_insecure_port("127.0.0.1:0")
server.start()
print(port, flush=True)
server.wait_for_termination()
