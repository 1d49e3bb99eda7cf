import Foundation
import RosterDomain
import RosterMigration
import NIOPosix
import RosterIdentity
import RosterSystem
import RosterTLS

/// `login` and `logout`: the server's web app approves the login (docs/SSO.md).
extension CommandRunner {
    /// The web app's address: `web`, else the server's host on the HTTP listener's usual port.
    func webBase(_ web: String?) -> String {
        if let web { return web.hasSuffix("/") ? String(web.dropLast()) : web }
        let host = settings.hostAndPort?.host ?? "127.0.0.1"
        return "\(settings.tls ? "https" : "http")://\(host.contains(":") ? "[\(host)]" : host):7480"
    }

    private func post(_ client: SourceHTTPClient, _ path: String, _ fields: [String: String]) async throws
        -> (status: Int, fields: [String: String])
    {
        let body = try JSONSerialization.data(withJSONObject: fields)
        let answer = try await client.send(.post(path, body: body))
        let object = (try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any] ?? [:]
        return (answer.status, object.compactMapValues { $0 as? String ?? ($0 as? NSNumber)?.stringValue })
    }

    /// Asks for a code, says where to approve it, waits for the approval, saves the token. With
    /// `browser`, the page is opened here and the web app sends the browser back to a listener on
    /// 127.0.0.1 with the code, exchanged with a PKCE verifier (RFC 8252).
    public func login(web: String?, browser: Bool = false) async -> ClientExitCode {
        let base = webBase(web)
        if browser { return await browserLogin(base: base) }
        do {
            let client = try SourceHTTPClient(base: base, headers: [], caFile: settings.caFile, timeout: .seconds(20))
            let started = try await post(client, "/sign-in/cli/start", ["tenant": settings.tenant])
            guard started.status == 200, let device = started.fields["device_code"],
                let page = started.fields["verification_uri_complete"], let code = started.fields["user_code"]
            else {
                Self.err(
                    "roster-client: \(base) did not start a login (HTTP \(started.status) \(started.fields["error"] ?? ""))"
                )
                return .failure
            }
            Self.out("Open \(page)\nin a browser where you can sign in, and allow the code \(code).")
            var interval = Int(started.fields["interval"] ?? "2") ?? 2
            let deadline = ContinuousClock.now + .seconds(Int(started.fields["expires_in"] ?? "600") ?? 600)
            while ContinuousClock.now < deadline {
                try await Task.sleep(for: .seconds(interval))
                let polled = try await post(client, "/sign-in/cli/token", ["device_code": device])
                if polled.status == 200, polled.fields["token"] != nil {
                    return try await save(polled.fields, base: base)
                }
                switch polled.fields["error"] {
                case "authorization_pending": continue
                case "slow_down": interval += 1
                case "access_denied":
                    Self.err("roster-client: the login was refused in the browser")
                    return .permissionDenied
                default:
                    Self.err("roster-client: the login expired; run roster-client login again")
                    return .failure
                }
            }
            Self.err("roster-client: nobody allowed the code within 10 minutes; run roster-client login again")
            return .failure
        } catch {
            Self.err("roster-client: cannot log in through \(base): \(error)")
            return .unreachable
        }
    }

    /// The token and refresh secret of a granted login, kept for this server.
    private func save(_ granted: [String: String], base: String) async throws -> ClientExitCode {
        let saved = LoginTokens.Saved(
            token: granted["token"] ?? "", expiresAt: granted["expires_at_ms"].flatMap { Int64($0) },
            refresh: granted["refresh_token"], web: base)
        let server = settings.server
        try await NIOThreadPool.singleton.runIfActive {
            try LoginTokens.write(saved, server: server, environment: ProcessInfo.processInfo.environment)
        }
        Self.out(
            "Signed in: roster-client acts as you on \(settings.server), its token renewed each hour "
                + "(kept in \(LoginTokens.file(server: settings.server).path); roster-client logout ends it).")
        return .success
    }

    private func browserLogin(base: String) async -> ClientExitCode {
        let verifier = Base64URL.encode(Crypto.randomBytes(32))
        let state = Base64URL.encode(Crypto.randomBytes(16))
        let listener: LoopbackRedirect
        do { listener = try await LoopbackRedirect.start(state: state) } catch {
            Self.err("roster-client: cannot listen on 127.0.0.1 for the browser: \(error)")
            return .failure
        }
        do {
            let client = try SourceHTTPClient(base: base, headers: [], caFile: settings.caFile, timeout: .seconds(20))
            let started = try await post(
                client, "/sign-in/cli/start",
                [
                    "tenant": settings.tenant, "redirect_uri": listener.redirectURI,
                    "code_challenge": Base64URL.encode(Crypto.sha256(Array(verifier.utf8))),
                    "code_challenge_method": "S256", "state": state,
                ])
            guard started.status == 200, let page = started.fields["verification_uri_complete"],
                let code = started.fields["user_code"]
            else {
                await listener.close()
                Self.err(
                    "roster-client: \(base) did not start a login (HTTP \(started.status) \(started.fields["error_description"] ?? started.fields["error"] ?? ""))"
                )
                return .failure
            }
            Self.out("Opening \(page)\n(if no browser opens, open it yourself), then allow the code \(code).")
            Self.openBrowser(page)
            let back = try await listener.wait(timeout: .seconds(Int64(started.fields["expires_in"] ?? "600") ?? 600))
            await listener.close()
            guard back["state"] == state else {
                Self.err("roster-client: the browser came back from another login; run roster-client login again")
                return .failure
            }
            guard let authorization = back["code"] else {
                Self.err("roster-client: the login was refused in the browser")
                return .permissionDenied
            }
            let granted = try await post(
                client, "/sign-in/cli/token", ["code": authorization, "code_verifier": verifier])
            guard granted.status == 200, granted.fields["token"] != nil else {
                Self.err("roster-client: the server did not give the login's token (\(granted.fields["error"] ?? ""))")
                return .failure
            }
            return try await save(granted.fields, base: base)
        } catch let failure as LoopbackFailure {
            await listener.close()
            Self.err("roster-client: \(failure); run roster-client login again")
            return .failure
        } catch {
            await listener.close()
            Self.err("roster-client: cannot log in through \(base): \(error)")
            return .unreachable
        }
    }

    /// `$BROWSER URL`, else `xdg-open URL`, not waited for; nothing when neither is there.
    static func openBrowser(_ url: String) {
        let environment = ProcessInfo.processInfo.environment
        let command = environment["BROWSER"].flatMap { $0.isEmpty ? nil : $0 } ?? "xdg-open"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [command, url]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
    }

    /// Revokes the saved token on the server and forgets it.
    public func logout(web: String?) async -> ClientExitCode {
        guard let saved = LoginTokens.read(server: settings.server) else {
            Self.out("Not logged in to \(settings.server).")
            return .success
        }
        // The web app the login came through, where it has one: its secrets go nowhere else.
        let base = saved.web ?? webBase(web)
        do {
            let client = try SourceHTTPClient(
                base: base, headers: [("Authorization", "Bearer " + saved.token)], caFile: settings.caFile,
                timeout: .seconds(20))
            let answer = try await post(
                client, "/sign-in/cli/logout", saved.refresh.map { ["refresh_token": $0] } ?? [:])
            if answer.status != 200 {
                Self.err(
                    "roster-client: the server did not revoke the token (HTTP \(answer.status)); forgetting it anyway")
            }
        } catch {
            Self.err("roster-client: cannot reach \(base) to revoke the token (\(error)); forgetting it anyway")
        }
        try? FileManager.default.removeItem(at: LoginTokens.file(server: settings.server))
        Self.out("Logged out of \(settings.server).")
        return .success
    }
}
