import Foundation

// OCAGraphDOT: an OpenCoreAudio extension (Apple has no such call), a picture of a graph beside CAShow's
// text. It reads the graph through the public AUGraph and AudioComponent calls only, so its output is
// what a client could build itself.

/// A Graphviz DOT digraph of an AUGraph: one box per node (node number, type/subtype/manufacturer
/// four-char codes and the component's name), one edge per connection labelled with its output and
/// input bus, and one small point per input callback with an edge to the input it feeds. Subgraph nodes
/// are drawn as boxes named "subgraph". Render it with Graphviz, e.g. `dot -Tpng graph.dot -o graph.png`.
/// An invalid graph gives an empty digraph. Never call from the render thread (it allocates and takes
/// the graph's lock).
public func OCAGraphDOT(_ graph: AUGraph) -> String {
    var lines = ["digraph AUGraph {", "  rankdir=LR;", "  node [shape=box, fontname=\"Helvetica\"];",
                 "  edge [fontname=\"Helvetica\", fontsize=10];"]
    var count: UInt32 = 0
    if AUGraphGetNodeCount(graph, &count) == noErr {
        for index in 0..<count {
            var node = AUNode()
            guard AUGraphGetIndNode(graph, index, &node) == noErr else { continue }
            var description = AudioComponentDescription()
            let label: String
            if AUGraphNodeInfo(graph, node, &description, nil) == noErr {
                let codes = [description.componentType, description.componentSubType, description.componentManufacturer]
                    .map { OCAFormat.string(fromFourCharCode: $0) }.joined(separator: " ")
                label = "node \(node)\\n\(dotEscaped(codes))" + (componentName(description).map { "\\n" + dotEscaped($0) } ?? "")
            } else {
                label = "node \(node)\\nsubgraph"
            }
            lines.append("  n\(node) [label=\"\(label)\"];")
        }
    }
    var interactions: UInt32 = 0
    if AUGraphGetNumberOfInteractions(graph, &interactions) == noErr {
        for index in 0..<interactions {
            var interaction = AUNodeInteraction()
            guard AUGraphGetInteractionInfo(graph, index, &interaction) == noErr else { continue }
            if interaction.nodeInteractionType == kAUNodeInteraction_Connection {
                let c = interaction.nodeInteraction.connection
                lines.append("  n\(c.sourceNode) -> n\(c.destNode) [label=\"bus \(c.sourceOutputNumber) -> bus \(c.destInputNumber)\"];")
            } else if interaction.nodeInteractionType == kAUNodeInteraction_InputCallback {
                let cb = interaction.nodeInteraction.inputCallback
                let name = "callback\(cb.destNode)_\(cb.destInputNumber)"
                lines.append("  \(name) [shape=point, width=0.12, xlabel=\"input callback\"];")
                lines.append("  \(name) -> n\(cb.destNode) [label=\"bus \(cb.destInputNumber)\"];")
            }
        }
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
}

/// The registered component's name ("Apple: AUMultiChannelMixer"), nil when none matches.
private func componentName(_ description: AudioComponentDescription) -> String? {
    var d = description
    guard let component = AudioComponentFindNext(nil, &d) else { return nil }
    var name: Unmanaged<CFString>?
    guard AudioComponentCopyName(component, &name) == noErr, let name else { return nil }
    return name.takeRetainedValue() as String
}

/// Text safe inside a DOT double-quoted string: backslashes and quotes escaped, control characters dropped.
private func dotEscaped(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": out += "\\\\"
        case "\"": out += "\\\""
        case _ where scalar.value < 0x20 || scalar.value == 0x7F: continue
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}
