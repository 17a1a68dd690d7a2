/// Fits up to four declared text lines to the display's main fields the way the SDL app
/// libraries' TextAndGraphicManager does (sdl_javascript_suite `_assembleOneLineShowText` …
/// `_assembleFourLineShowText`; sdl_java_suite and sdl_ios do the same; docs/protocol.md §m), empty lines skipped and
/// joined lines separated by `" - "`:
///
/// | lines | mainField1        | mainField2 | mainField3 | mainField4 |
/// |-------|-------------------|------------|------------|------------|
/// | 1     | a - b - c - d     |            |            |            |
/// | 2     | a - b             | c - d      |            |            |
/// | 2, only a and b | a       | b          |            |            |
/// | 3     | a                 | b          | c - d      |            |
/// | 4     | a                 | b          | c          | d          |
///
/// A display with no main field gets the one-line form (with a warning from the renderer).
public enum SDLTextFitter {
    /// One main field's text and the indexes of the declared lines in it.
    public struct Line: Sendable, Hashable {
        public var field: String
        public var text: String
        public var sources: [Int]
    }

    /// The main fields `mainField1`…`mainFieldN` (N = `lines`, 1…4), each present even when empty.
    public static func fit(_ texts: [String], lines: Int) -> [Line] {
        let padded = (0..<4).map { $0 < texts.count ? texts[$0] : "" }
        func join(_ indexes: [Int]) -> (String, [Int]) {
            let used = indexes.filter { !padded[$0].isEmpty }
            return (used.map { padded[$0] }.joined(separator: " - "), used)
        }
        let groups: [[Int]]
        switch min(max(lines, 1), 4) {
        case 1: groups = [[0, 1, 2, 3]]
        case 2: groups = padded[2].isEmpty && padded[3].isEmpty ? [[0], [1]] : [[0, 1], [2, 3]]
        case 3: groups = [[0], [1], [2, 3]]
        default: groups = [[0], [1], [2], [3]]
        }
        return groups.enumerated().map { offset, group in
            let (text, sources) = join(group)
            return Line(field: "mainField\(offset + 1)", text: text, sources: sources)
        }
    }
}
