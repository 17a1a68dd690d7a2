/// "Did you mean …?" for a name the spec does not know (a misspelt parameter, function, enum
/// element or member): the known name closest to it, when one is close enough to be a typo.
public enum SDLSpelling {
    /// The name of `candidates` closest to `name`: one that differs only in case, else the nearest
    /// by edit distance (an insertion, deletion, substitution or swap of neighbours costs 1,
    /// case ignored) within a third of the name's length (at least 1, at most 3). Ties go to
    /// the first in sorted order; nil when none is that close.
    public static func suggestion(for name: String, among candidates: some Sequence<String>) -> String? {
        let lowered = Array(name.lowercased())
        let limit = min(3, max(1, lowered.count / 3))
        var best: (distance: Int, name: String)?
        for candidate in candidates {
            let other = Array(candidate.lowercased())
            guard abs(other.count - lowered.count) <= limit else { continue }
            let distance = other == lowered ? 0 : Self.distance(lowered, other)
            guard distance <= limit else { continue }
            if best == nil || distance < best!.distance || (distance == best!.distance && candidate < best!.name) {
                best = (distance, candidate)
            }
        }
        return best?.name
    }

    /// `" (did you mean X?)"` for ``suggestion(for:among:)``, else empty.
    public static func didYouMean(_ name: String, among candidates: some Sequence<String>) -> String {
        suggestion(for: name, among: candidates).map { " (did you mean \($0)?)" } ?? ""
    }

    /// Optimal string alignment distance (Damerau-Levenshtein without repeated edits of a substring).
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { current[j] = min(current[j], previous2[j - 2] + 1) }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
