"""A real OpenID Provider on this machine, for Roster's sign-in tests and docs/SSO.md's walkthrough:
Canaille (PyPI `canaille`, through `pytest-iam`'s Server) serving discovery, keys, the
authorization code flow with PKCE and nonce, and userinfo; its data in memory.

    identity_provider.py --redirect-uri URI --client-secret-file FILE [--port N] [--scim-client-uri URI]

It registers the client `roster` (client_secret_basic, that redirect URI), and two people who
sign in through its own login form: lynn (password "lynn-password", in the group oncall-admins)
and jean (password "jean-password", in no group); neither is in the demo roster. Printed when it serves:

    ISSUER http://localhost:PORT

Commands on stdin, one per line, each answered with a line: `rotate` makes a new signing key
the active one (the old one is still published, inactive) and answers `ROTATED <kid>`.

With --scim-client-uri, Canaille's own SCIM client (canaille/scim/client.py) provisions the
client `roster` at that URI whenever a person or group is saved or deleted, with an access token
Canaille mints for the client (Roster checks it at Canaille's introspection endpoint). Then:
`provision` saves jean again, saves grace (Grace Hopper; made the first time) and the group
platform-sre of both (likewise), answering `PROVISIONED`; `rename` gives grace the family name Murray (`RENAMED`); `leave`
deletes grace (`LEFT`). Canaille's client logs and swallows its failures, so each answer means
the requests were made, not that Roster took them: the tests look at Roster.
"""
import argparse
import datetime
import errno
import os
import sys
import threading
import uuid

os.environ["AUTHLIB_INSECURE_TRANSPORT"] = "1"  # plain http, on loopback only
if "--scim-client-uri" in sys.argv:
    # Canaille's SCIM client imports scim2_client.engines.httpx, which newer scim2-client
    # releases dropped: scripts/test-tools installs the pair it works with in VENV/canaille-scim.
    sys.path.insert(0, os.path.join(sys.prefix, "canaille-scim"))

import portpicker
from canaille import create_app
from canaille.app import models
from canaille.backends import Backend
from joserfc.jwk import JWKRegistry
from pytest_iam import Server


def new_key():
    key = JWKRegistry.generate_key("RSA", 2048)
    key.ensure_kid()
    return key.as_dict(private=True)


def make_server(args, port):
    config = {
        "TESTING": True,
        "ENV_FILE": None,
        "SECRET_KEY": str(uuid.uuid4()),
        "WTF_CSRF_ENABLED": False,
        "PREFERRED_URL_SCHEME": "http",
        "SERVER_NAME": f"localhost:{port}",
        "CANAILLE": {"DATABASE": "memory", "JAVASCRIPT": False, "ACL": {"DEFAULT": {"PERMISSIONS": ["use_oidc"]}}},
        "CANAILLE_OIDC": {"ACTIVE_JWKS": [new_key()], "INACTIVE_JWKS": []},
    }
    if args.scim_client_uri:
        config["CANAILLE_SCIM"] = {"ENABLE_CLIENT": True}
        # A trusted client is provisioned with everyone, not only the people who consented.
        config["CANAILLE_OIDC"]["TRUSTED_DOMAINS"] = ["127.0.0.1", "localhost"]
    app = create_app(config=config, env_file=None, env_prefix="ROSTER_TEST_IAM_")
    return app, Server(app, port, Backend.instance)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--redirect-uri", required=True)
    parser.add_argument("--client-secret-file", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--scim-client-uri")
    args = parser.parse_args()
    with open(args.client_secret_file) as f:
        secret = f.read().strip()
    # A port picked free can be taken by another process (a test's server, an outgoing
    # connection's source port) before it is bound here: then another is picked.
    for attempt in range(20):
        port = args.port or portpicker.pick_unused_port()
        try:
            app, server = make_server(args, port)
            break
        except OSError as error:
            if args.port or error.errno != errno.EADDRINUSE or attempt == 19:
                raise
    with app.app_context():
        backend = Backend.instance
        lynn = models.User(
            user_name="lynn", given_name="Lynn", family_name="Conway", formatted_name="Lynn Conway",
            emails=["lynn@example.test"], password="lynn-password")
        backend.save(lynn)
        jean = models.User(
            user_name="jean", given_name="Jean", family_name="Sammet", formatted_name="Jean Sammet",
            emails=["jean@example.test"], password="jean-password")
        backend.save(jean)
        admins = models.Group(display_name="oncall-admins", members=[lynn])
        backend.save(admins)
        client = models.Client(
            client_id="roster", client_secret=secret, client_name="Roster",
            client_id_issued_at=datetime.datetime.now(datetime.timezone.utc),
            redirect_uris=[args.redirect_uri], grant_types=["authorization_code"], response_types=["code"],
            token_endpoint_auth_method="client_secret_basic", id_token_signed_response_alg="RS256",
            scope=["openid", "profile", "email", "groups"], client_uri=args.scim_client_uri)
        backend.save(client)
        client.audience = [client]  # itself: saved first, so that it can be named
        backend.save(client)
        # Consent given ahead: the test signs in, it does not review scopes.
        server.consent(lynn, client)
        server.consent(jean, client)
    threading.Thread(target=server.httpd.serve_forever, daemon=True).start()
    print(f"ISSUER http://localhost:{port}", flush=True)
    for line in sys.stdin:
        if line.strip() in ("provision", "rename", "leave"):
            with app.app_context(), app.test_request_context():
                provision(line.strip(), Backend.instance)
            continue
        if line.strip() == "rotate":
            oidc = app.config["CANAILLE_OIDC"]
            key = new_key()
            oidc["INACTIVE_JWKS"] = list(oidc["INACTIVE_JWKS"] or []) + list(oidc["ACTIVE_JWKS"])
            oidc["ACTIVE_JWKS"] = [key]
            print(f"ROTATED {key['kid']}", flush=True)
    server.httpd.shutdown()


def provision(command, backend):
    """Changes that Canaille's SCIM client pushes to Roster as they are saved."""
    jean = backend.get(models.User, user_name="jean")
    if command == "provision":
        backend.save(jean)
        grace = backend.get(models.User, user_name="grace") or models.User(
            user_name="grace", given_name="Grace", family_name="Hopper", formatted_name="Grace Hopper",
            emails=["grace@example.test"], phone_numbers=["+1 555 0100"], title="Rear admiral")
        backend.save(grace)
        group = backend.get(models.Group, display_name="platform-sre") or models.Group(
            display_name="platform-sre", members=[grace, jean])
        backend.save(group)
        print("PROVISIONED", flush=True)
    elif command == "rename":
        grace = backend.get(models.User, user_name="grace")
        grace.family_name, grace.formatted_name = "Murray", "Grace Murray"
        backend.save(grace)
        print("RENAMED", flush=True)
    else:
        backend.delete(backend.get(models.User, user_name="grace"))
        print("LEFT", flush=True)


if __name__ == "__main__":
    main()
