import Foundation
import RosterDomain
import RosterStore
import RosterTLS

/// Seals the secrets the server must be able to use again (webhook signing keys) before they
/// are stored, with AES-256-GCM under a key that is not in the store: `DATA_DIR/secrets.key`
/// (32 random bytes, 0600, made at first start), or the file `--secrets-key-file` names. A
/// backup or a dump of the store then holds no usable secret. Nodes sharing a PostgreSQL store
/// need the same key file (docs/SCALING.md).
///
/// Stored form: "sealed:v1:" and the base64 of nonce, ciphertext and tag. A value without the
/// prefix is a secret stored before sealing existed; `open` returns it as it is, and the server
/// seals such values at start.
package struct SecretSealer: Sendable {
    static let prefix = "sealed:v1:"
    private let key: [UInt8]

    package init(key: [UInt8]) { self.key = key }

    /// The key in `path`, made there (0600) if the file does not exist. Blocking file work.
    /// Nodes starting at once on one shared file agree: the new key is written whole to a file
    /// of its own, then linked into place, which fails if another got there first (then that
    /// one is read).
    package static func load(path: String) throws -> SecretSealer {
        if let text = try? String(contentsOfFile: path, encoding: .utf8) { return try parse(text, path: path) }
        let made = path + ".\(getpid()).new"
        try PrivateFile.write(Data(Crypto.randomBytes(32)).base64EncodedString() + "\n", to: made)
        defer { unlink(made) }
        if link(made, path) != 0 && errno != EEXIST {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        return try parse(try String(contentsOfFile: path, encoding: .utf8), path: path)
    }

    private static func parse(_ text: String, path: String) throws -> SecretSealer {
        guard let key = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)), key.count == 32
        else {
            throw SecretKeyError(path: path)
        }
        return SecretSealer(key: [UInt8](key))
    }

    package func seal(_ secret: String) -> String {
        Self.prefix + Data(Crypto.seal(Array(secret.utf8), key: key)).base64EncodedString()
    }

    /// The secret; nil when it was sealed under another key.
    package func open(_ stored: String) -> String? {
        guard stored.hasPrefix(Self.prefix) else { return stored }
        guard let sealed = Data(base64Encoded: String(stored.dropFirst(Self.prefix.count))),
            let plain = Crypto.open([UInt8](sealed), key: key)
        else { return nil }
        return String(decoding: plain, as: UTF8.self)
    }

    package static func isSealed(_ stored: String) -> Bool { stored.hasPrefix(prefix) }
}

struct SecretKeyError: Error, CustomStringConvertible {
    let path: String
    var description: String { "\(path) is not a secrets key (the base64 of 32 bytes, as the server writes it)" }
}
