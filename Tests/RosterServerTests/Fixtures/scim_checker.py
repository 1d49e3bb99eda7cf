"""Runs scim2-tester (PyPI), an independent SCIM 2.0 checker, against a server's /scim/v2.

Usage: scim_checker.py BASE_URL TOKEN. Prints one line per check that did not pass, then
"CHECKS n FAILED m SKIPPED k". Exits 0 when nothing failed.
"""
import sys

import httpx2
from scim2_client.engines.httpx2 import SyncSCIMClient
from scim2_tester import Status, check_server

base, token = sys.argv[1], sys.argv[2]
client = SyncSCIMClient(httpx2.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=30))
results = check_server(client)
failed = [r for r in results if r.status not in (Status.SUCCESS, Status.SKIPPED)]
skipped = [r for r in results if r.status == Status.SKIPPED]
for r in failed:
    print("FAILED", r.status.name, r.title, r.resource_type, (r.reason or "").replace("\n", " ")[:500])
for r in skipped:
    print("SKIPPED", r.title, r.resource_type, (r.reason or "").replace("\n", " ")[:200])
print(f"CHECKS {len(results)} FAILED {len(failed)} SKIPPED {len(skipped)}")
sys.exit(1 if failed else 0)
