import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Checks definition files (docs/AS-CODE.md) against the published JSON Schema,
/// docs/roster-definition.schema.json, with Python's jsonschema and PyYAML (PyPI; .ci/run
/// installs them): what an editor or a CI job outside Roster would run.
public enum DefinitionSchema {
    public static var path: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("docs/roster-definition.schema.json").path
    }

    static let script = """
        import json, sys, yaml, jsonschema
        schema = json.load(open(sys.argv[1]))
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)
        result = {}
        for name in sys.argv[2:]:
            document = yaml.safe_load(open(name))
            result[name] = [f"{'/'.join(str(p) for p in error.absolute_path)}: {error.message}" for error in validator.iter_errors(document)]
        print(json.dumps(result))
        """

    /// Each text's problems by its index; empty lists when all are valid.
    public static func problems(_ texts: [String]) async throws -> [[String]] {
        let scratch = TestScratch.directory("roster-schema")
        defer { TestScratch.remove(scratch) }
        var files: [String] = []
        for (index, text) in texts.enumerated() {
            let file = scratch.appendingPathComponent("definition-\(index).yaml")
            try Data(text.utf8).write(to: file)
            files.append(file.path)
        }
        let python = try ChildProcess("/usr/bin/env", ["python3", "-c", script, path] + files)
        guard let status = await python.waitForExit(timeout: .seconds(60)) else {
            await python.stop(signal: SIGKILL)
            throw TestFailure("python3 did not finish")
        }
        guard status == 0,
            let parsed = try JSONSerialization.jsonObject(with: Data(python.stdout.utf8)) as? [String: [String]]
        else {
            throw TestFailure("python3 with jsonschema and PyYAML (pip install jsonschema pyyaml): \(python.stderr)")
        }
        return files.map { parsed[$0] ?? ["not checked"] }
    }
}
