package dev.kernellab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * {@code kernel-lab xref --html}: the page links every kernel function to the Java that models
 * it and back, every link lands on an anchor of the page, and names are escaped. The page is
 * well-formed XML by design, so it is read here with the JDK's XML parser.
 */
class XrefHtmlTests {

  private static Document parse(String page) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
    return f.newDocumentBuilder().parse(new ByteArrayInputStream(page.getBytes(StandardCharsets.UTF_8)));
  }

  /** Every element with an id, by id; a duplicate id fails. */
  private static Map<String, Element> ids(Document d) {
    Map<String, Element> ids = new LinkedHashMap<>();
    NodeList all = d.getElementsByTagName("*");
    for (int i = 0; i < all.getLength(); i++) {
      Element e = (Element) all.item(i);
      if (e.hasAttribute("id")) {
        assertThat(ids.put(e.getAttribute("id"), e)).as("id %s is unique", e.getAttribute("id")).isNull();
      }
    }
    return ids;
  }

  /** The targets of the links inside {@code e}, without their '#'. */
  private static List<String> links(Element e) {
    List<String> out = new ArrayList<>();
    NodeList as = e.getElementsByTagName("a");
    for (int i = 0; i < as.getLength(); i++) {
      String href = ((Element) as.item(i)).getAttribute("href");
      assertThat(href).as("a link of the page stays on the page").startsWith("#");
      out.add(href.substring(1));
    }
    return out;
  }

  private static void everyLinkLandsOnAnAnchor(Document d, Map<String, Element> ids) {
    List<String> all = links(d.getDocumentElement());
    assertThat(all).isNotEmpty();
    assertThat(ids.keySet()).containsAll(all);
  }

  @Test
  void everyKernelFunctionLinksToItsJavaClassesAndEachClassBackWithTheVersion() throws Exception {
    List<Xref.Entry> entries = Xref.scan();
    Document d = parse(XrefHtml.page(entries));
    Map<String, Element> ids = ids(d);
    everyLinkLandsOnAnAnchor(d, ids);
    for (Xref.Entry e : entries) {
      String kernel = XrefHtml.kernelId(e.file(), e.function());
      String java = XrefHtml.id("j-", XrefHtml.topClass(e.element()));
      Element row = ids.get(kernel);
      assertThat(row).as("the row of %s", e).isNotNull();
      assertThat(links(row)).as("%s links to its Java class", e).contains(java);
      assertThat(row.getTextContent()).as(e.toString()).contains(e.function(), e.element(), e.version());
      Element section = ids.get(java);
      assertThat(section).as("the section of %s", e.element()).isNotNull();
      assertThat(links(section)).as("%s links back to its kernel function", e.element()).contains(kernel);
      assertThat(section.getTextContent()).as(e.toString()).contains(e.file() + ": " + e.function(), e.version());
    }
    // the two indexes, each with its own table of contents
    assertThat(ids).containsKeys("kernel", "java", "f-kernel/sched.c", "k-kernel/sched.c:schedule",
        "j-dev.kernellab.kernel.TaskOps", "p-dev.kernellab.kernel");
    // a nested class is read in its top-level class's section, with its member's name
    assertThat(ids.get("j-dev.kernellab.kernel.TaskOps").getTextContent()).contains("$Fault", "error_code");
  }

  @Test
  void namesAreEscapedAndTheirAnchorsStillResolve() throws Exception {
    List<Xref.Entry> entries = List.of(
        new Xref.Entry("drivers/a&b.c", "f<g>&h", "2.4.17 <rml & akpm>", "dev.x.A#<init>"),
        new Xref.Entry("drivers/a&b.c", "f<g>&h", "2.4.18", "dev.x.B$C#m"),
        new Xref.Entry("fs/#hash~.c", "walk#inner", "2.4.17", "dev.x.A"));
    String page = XrefHtml.page(entries);
    assertThat(page).contains("f&lt;g&gt;&amp;h", "drivers/a&amp;b.c", "2.4.17 &lt;rml &amp; akpm&gt;", "#&lt;init&gt;")
        .doesNotContain("f<g", "a&b", "<init>", "<rml");
    Document d = parse(page);
    Map<String, Element> ids = ids(d);
    everyLinkLandsOnAnAnchor(d, ids);
    // ids hold only what a fragment holds as it is written: no decoding between href and id
    assertThat(ids.keySet()).allMatch(id -> id.matches("[A-Za-z0-9._:/$~-]+"));
    Element row = ids.get(XrefHtml.kernelId("drivers/a&b.c", "f<g>&h"));
    assertThat(row.getTextContent()).contains("f<g>&h", "dev.x.A#<init>", "2.4.17 <rml & akpm>", "dev.x.B$C#m", "2.4.18");
    assertThat(links(row)).containsExactly("j-dev.x.A", "j-dev.x.B");
    assertThat(links(ids.get("j-dev.x.A")))
        .containsExactlyInAnyOrder(XrefHtml.kernelId("drivers/a&b.c", "f<g>&h"), XrefHtml.kernelId("fs/#hash~.c", "walk#inner"));
    // '#' and '~' in a name cannot make two names one id
    assertThat(XrefHtml.id("k-", "a#b")).isNotEqualTo(XrefHtml.id("k-", "a~23~b")).isEqualTo("k-a~23~b");
  }

  @Test
  void theCommandWritesThePageWholeAndRefusesABadPathInOneLine(@TempDir Path tmp) throws Exception {
    Path file = tmp.resolve("sub/xref.html");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = KernelLab.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
        .execute("xref", "--html", file.toString());
    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString()).startsWith("kernel-lab xref: ").endsWith(" written to " + file + "\n");
    assertThat(Files.readString(file)).isEqualTo(XrefHtml.page(Xref.scan()));

    Path dir = Files.createDirectory(tmp.resolve("d"));
    StringWriter err2 = new StringWriter();
    int refused = KernelLab.commandLine(new PrintWriter(new StringWriter(), true), new PrintWriter(err2, true))
        .execute("xref", "--html", dir.toString());
    assertThat(refused).isEqualTo(2);
    assertThat(err2.toString().lines()).containsExactly("kernel-lab: --html " + dir + ": is a directory");
  }
}
