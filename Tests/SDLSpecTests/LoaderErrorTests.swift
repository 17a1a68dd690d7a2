import Foundation
import SDLProtocol
import SDLSpec
import Testing

@Suite("Spec loader")
struct LoaderErrorTests {
    func code(_ data: Data) -> SDLSpecError.Code? {
        do {
            _ = try SDLCatalog(xml: data)
            return nil
        } catch {
            return error.code
        }
    }

    @Test("A small spec loads: hex and decimal FunctionIDs, history ignored, types resolved")
    func loads() throws {
        let catalog = try SDLCatalog(
            xml: SpecFixture.xml(
                """
                <enum name="Mode" since="1.0"><element name="A" internal_name="M_A"/><element name="B"/></enum>
                <struct name="Box"><param name="inner" type="Box" mandatory="false"/><param name="mode" type="Mode" defvalue="B" mandatory="false"/>
                    <param name="only" type="Mode" mandatory="false"><element name="B"/><history><param name="only" type="Mode"><element name="A"/></param></history></param></struct>
                <function name="Show" functionID="ShowID" messagetype="request" since="2.0">
                    <description>ignored</description>
                    <param name="text" type="String" minlength="1" maxlength="5"/>
                    <param name="boxes" type="Box" array="true" minsize="1" maxsize="3" mandatory="false"/>
                    <param name="n" type="Float" minvalue="-1.5" maxvalue="2.5" mandatory="false" deprecated="true"/>
                    <history><function name="Show" functionID="NotAnID" messagetype="bogus"/></history>
                </function>
                <function name="OnHMIStatus" functionID="OnHMIStatusID" messagetype="notification"/>
                <function name="OnlyHex" functionID="OnlyHexID" messagetype="notification"/>
                """))
        #expect(catalog.version == "9.9.9")
        #expect(catalog.functions.map(\.functionID) == [13, 0x8000, 0x10000])
        #expect(catalog.enums["Mode"]?.elementNames == ["A", "B"])
        let show = try #require(catalog.function(named: "Show", messageType: .request))
        #expect(show.since == "2.0")
        #expect(
            show.parameters == [
                SDLParameter(name: "text", type: .string, minLength: 1, maxLength: 5),
                SDLParameter(name: "boxes", type: .structure("Box"), isArray: true, minSize: 1, maxSize: 3, isMandatory: false),
                SDLParameter(name: "n", type: .float, minValue: -1.5, maxValue: 2.5, isMandatory: false, isDeprecated: true),
            ])
        #expect(catalog.structs["Box"]?.parameters.first?.type == .structure("Box"))
        // A recursive struct: the template stops at the depth bound and still validates.
        let full = catalog.template(for: show, includeOptional: true, maximumDepth: 3)
        #expect(catalog.validate(full, against: show).isEmpty)
        #expect(full["boxes"]?.arrayValue?.first?["mode"] == "B")
        #expect(full["boxes"]?.arrayValue?.first?["only"] == "B")
        #expect(catalog.structs["Box"]?.parameter(named: "only")?.allowedElements == ["B"])
        let decoded = try SDLCatalog(json: catalog.jsonData())
        #expect(decoded == catalog)
    }

    @Test("Malformed XML")
    func malformed() {
        #expect(code(Data("<interface version=\"1\"><enum name=\"x\"></interface>".utf8)) == .malformedXML)
        #expect(code(Data("not xml".utf8)) == .malformedXML)
        #expect(code(Data()) == .malformedXML)
    }

    @Test("No <interface>")
    func noInterface() {
        #expect(
            code(SpecFixture.xml("<function name=\"Show\" functionID=\"ShowID\" messagetype=\"request\"/>", interface: false))
                == .missingInterface)
    }

    @Test("A functionID that is not in FunctionID")
    func unknownFunctionID() throws {
        #expect(code(SpecFixture.xml("<function name=\"Alert\" functionID=\"AlertID\" messagetype=\"request\"/>")) == .unknownFunctionID)
        do {
            _ = try SDLCatalog(xml: SpecFixture.xml("\n<function name=\"Alert\" functionID=\"AlertID\" messagetype=\"request\"/>"))
        } catch {
            #expect(error.line == 9)
            #expect(error.description.contains("AlertID"))
        }
    }

    @Test("Other loader errors have their own codes")
    func otherErrors() {
        #expect(code(SpecFixture.xml("<function name=\"Show\" functionID=\"ShowID\" messagetype=\"event\"/>")) == .unknownMessageType)
        #expect(code(SpecFixture.xml("<function name=\"Show\" messagetype=\"request\"/>")) == .missingAttribute)
        #expect(code(SpecFixture.xml("<struct name=\"S\"><param name=\"p\" type=\"Nope\"/></struct>")) == .unknownType)
        #expect(
            code(SpecFixture.xml("<struct name=\"S\"><param name=\"p\" type=\"Integer\" minvalue=\"low\"/></struct>")) == .invalidAttribute)
        #expect(
            code(SpecFixture.xml("<struct name=\"S\"><param name=\"p\" type=\"Integer\" mandatory=\"yes\"/></struct>")) == .invalidAttribute
        )
        #expect(code(SpecFixture.xml("<struct name=\"S\"/><struct name=\"S\"/>")) == .duplicateDefinition)
        #expect(
            code(
                SpecFixture.xml(
                    "<enum name=\"E\"><element name=\"A\"/></enum><struct name=\"S\"><param name=\"p\" type=\"E\"><element name=\"B\"/></param></struct>"
                )) == .unknownElement)
        #expect(
            code(
                SpecFixture.xml(
                    "<function name=\"Show\" functionID=\"ShowID\" messagetype=\"request\"/><function name=\"Show\" functionID=\"ShowID\" messagetype=\"request\"/>"
                )) == .duplicateDefinition)
        do {
            _ = try SDLCatalog(json: Data("{}".utf8))
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .invalidCatalog)
        }
        do {
            _ = try SDLCatalog(contentsOf: URL(fileURLWithPath: "/nonexistent/MOBILE_API.xml"))
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .unreadableFile)
        }
    }
}
