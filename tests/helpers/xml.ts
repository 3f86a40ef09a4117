// A strict little XML reader for the answers our own servers write (elements, attributes, text,
// the five entities and character references): enough to check OpenSubsonic XML shapes without a
// parser dependency. Raw tabs and line breaks in attributes read as spaces, as in every XML
// parser (XML 1.0 §3.3.3). It throws on anything malformed (unclosed or mismatched tags, bare '&'
// or '<', trailing junk), so a test that parses an answer also checks that it is well-formed.
export type XmlElement = { name: string; attributes: Record<string, string>; children: XmlElement[]; text: string }

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

function decode(s: string): string {
  if (/<|&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)/i.test(s)) throw new Error(`malformed XML text: ${s.slice(0, 80)}`)
  return s.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_, e: string) => {
    if (!e.startsWith('#')) return ENTITIES[e]
    const hex = e[1] === 'x' || e[1] === 'X'
    return String.fromCodePoint(Number.parseInt(e.slice(hex ? 2 : 1), hex ? 16 : 10))
  })
}

export function parseXml(xml: string): XmlElement {
  let i = 0
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '')
  function element(): XmlElement {
    const open = /^<([A-Za-z_][\w.-]*)((?:\s+[\w:.-]+="[^"]*")*)\s*(\/?)>/.exec(body.slice(i))
    if (!open) throw new Error(`malformed XML at ${i}: ${body.slice(i, i + 80)}`)
    i += open[0].length
    const attributes: Record<string, string> = {}
    for (const m of open[2].matchAll(/([\w:.-]+)="([^"]*)"/g)) {
      if (m[1] in attributes) throw new Error(`duplicate attribute ${m[1]}`)
      attributes[m[1]] = decode(m[2].replace(/[\t\n\r]/g, ' '))
    }
    const node: XmlElement = { name: open[1], attributes, children: [], text: '' }
    if (open[3] === '/') return node
    for (;;) {
      const lt = body.indexOf('<', i)
      if (lt < 0) throw new Error(`unclosed <${node.name}>`)
      node.text += decode(body.slice(i, lt))
      i = lt
      if (body.startsWith('</', i)) {
        const close = /^<\/([\w.-]+)\s*>/.exec(body.slice(i))
        if (!close || close[1] !== node.name) throw new Error(`mismatched close of <${node.name}> at ${i}`)
        i += close[0].length
        return node
      }
      node.children.push(element())
    }
  }
  const root = element()
  if (body.slice(i).trim() !== '') throw new Error('junk after the root element')
  return root
}

/** The direct children called `name`. */
export const childrenOf = (node: XmlElement, name: string) => node.children.filter((c) => c.name === name)
export function childOf(node: XmlElement, name: string): XmlElement {
  const found = node.children.find((c) => c.name === name)
  if (!found) throw new Error(`<${node.name}> has no <${name}>`)
  return found
}
