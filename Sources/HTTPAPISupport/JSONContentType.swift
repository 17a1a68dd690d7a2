/// Which `Content-Type` a JSON request body may carry: `application/json` (or `…+json`), or curl's
/// default `application/x-www-form-urlencoded`. A body of another type (`text/plain`, none) is
/// refused with 415 `unsupported-media-type`. This is not the defence against other sites' pages:
/// `fetch` can send JSON text as `application/x-www-form-urlencoded` without a preflight, and
/// ``BrowserOriginRule`` refuses such requests by their `Origin`.
public enum JSONContentType {
    public static func accepts(_ contentType: String?) -> Bool {
        let type = (contentType ?? "").split(separator: ";").first.map { $0.trimmingSpaces.lowercased() } ?? ""
        return type == "application/json" || type.hasSuffix("+json") || type == "application/x-www-form-urlencoded"
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var slice = self
        while slice.first?.isWhitespace == true { slice.removeFirst() }
        while slice.last?.isWhitespace == true { slice.removeLast() }
        return slice
    }
}
