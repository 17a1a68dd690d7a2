import SDLProtocol

/// The name of an image as the user declares it: a static icon of the head unit, by its SDL
/// name (MOBILE_API.xml `StaticIconName`, values such as `0x29`; `imageType` STATIC, nothing to
/// upload), or a dynamic file (`imageType` DYNAMIC) that must be on the head unit before a
/// request names it.
public enum SDLImageName {
    /// Whether `name` is a static icon: `0x` followed by one to four hexadecimal digits.
    public static func isStaticIcon(_ name: String) -> Bool {
        guard name.hasPrefix("0x") || name.hasPrefix("0X") else { return false }
        let digits = name.dropFirst(2)
        return (1...4).contains(digits.count) && digits.allSatisfy(\.isHexDigit)
    }

    /// The `Image` struct of MOBILE_API.xml for `name`.
    public static func image(_ name: String) -> SDLJSON {
        if isStaticIcon(name) {
            return ["value": .string(name), "imageType": "STATIC", "isTemplate": true]
        }
        return ["value": .string(name), "imageType": "DYNAMIC"]
    }

    /// `name` when it names a file to upload, `nil` for a static icon or no image.
    public static func dynamicFile(_ name: String?) -> String? {
        guard let name, !name.isEmpty, !isStaticIcon(name) else { return nil }
        return name
    }
}

extension SDLImageName {
    /// The dynamic file names of every `Image` struct inside `value` (an image, a soft button,
    /// an array of them), in order, without repeats.
    public static func dynamicFiles(in value: SDLJSON) -> [String] {
        var names: [String] = []
        func visit(_ value: SDLJSON) {
            switch value {
            case .object(let members):
                if members["imageType"]?.stringValue == "DYNAMIC", let name = members["value"]?.stringValue, !name.isEmpty {
                    if !names.contains(name) { names.append(name) }
                    return
                }
                for key in members.keys.sorted() { visit(members[key]!) }
            case .array(let elements):
                elements.forEach(visit)
            default:
                break
            }
        }
        visit(value)
        return names
    }
}
