import Foundation

/// One HTTP request with curl, a real HTTP client: status, headers and body.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: String
    public var body: String

    /// The body parsed as JSON.
    public var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
    }
}

public enum HTTPGet {
    public static let curl = "/usr/bin/curl"

    /// - Parameters: form: fields posted as application/x-www-form-urlencoded; jar: a cookie
    ///   file curl reads and writes (a browser's session); headers: more request headers.
    public static func request(
        _ url: String, token: String? = nil, method: String = "GET", insecureCA: String? = nil,
        form: [(String, String)]? = nil, jar: String? = nil, headers: [String] = [],
        compressed: Bool = false, data: String? = nil
    )
        async throws -> HTTPResponse
    {
        var arguments = ["-s", "-S", "-m", "20", "-X", method, "-D", "-", "-o", "-", url]
        // curl asks for gzip and inflates the body (the headers keep the sent length).
        if compressed { arguments.append("--compressed") }
        if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
        if let insecureCA { arguments += ["--cacert", insecureCA] }
        for (name, value) in form ?? [] { arguments += ["--data-urlencode", "\(name)=\(value)"] }
        if let jar { arguments += ["-b", jar, "-c", jar] }
        for header in headers { arguments += ["-H", header] }
        // A body sent as these exact bytes (a signature covers them).
        if let data { arguments += ["--data-binary", data] }
        let child = try ChildProcess(curl, arguments)
        guard let status = await child.waitForExit(timeout: .seconds(30)) else {
            await child.stop(signal: SIGKILL)
            throw TestFailure("curl \(url) did not finish")
        }
        guard status == 0 else { throw TestFailure("curl \(url) failed (\(status)): \(child.stderr)") }
        // -D - writes the headers first, then a blank line, then the body.
        let output = child.stdout
        let parts = output.components(separatedBy: "\r\n\r\n")
        let headers = parts.first ?? ""
        let body = parts.dropFirst().joined(separator: "\r\n\r\n")
        let code = headers.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return HTTPResponse(status: code, headers: headers, body: body)
    }
}
