package dev.kernellab.workloads.rtapp;

import java.util.ArrayList;
import java.util.List;

/**
 * JSON as rt-app and its {@code workgen} front end read it, not as RFC 8259 does: an object may
 * repeat a key (each occurrence is kept, in file order: {@code "run": 10, "sleep": 5, "run": 10}
 * is three events), C comments ({@code /* *}{@code /} and {@code //}) and trailing commas are
 * accepted. The tree keeps every value's JSON path and line, so the reader of the rt-app grammar
 * can name the offending key in one line.
 *
 * <pre>{@code
 * LenientJson.Obj root = LenientJson.parse(text);
 * for (LenientJson.Member m : root.members()) { ... m.key() ... m.value().path() ... }
 * }</pre>
 *
 * <p>Implementation overview: a recursive-descent parser over the characters, one method per
 * value kind; whitespace and comments are skipped between tokens. A malformed file is an
 * {@link IllegalArgumentException} naming the line, the column and the path of the object or
 * array being read. Numbers keep their text: rt-app reads durations as C ints, so a fraction
 * where an integer is expected is the grammar reader's error, not the parser's.
 */
public final class LenientJson {

  /** A value of the tree, with where it was read. */
  public sealed interface Value permits Obj, Arr, Str, Num, Bool, Null {
    /** The JSON path: {@code tasks.thread0.timer.period}; array elements as {@code cpus[1]}. */
    String path();

    /** The line of the file it starts on, from 1. */
    int line();

    /** What it is, for messages: {@code an object}, {@code a string}... */
    String kind();
  }

  /** One key and its value; a key may appear more than once in an object. */
  public record Member(String key, Value value) {}

  /** An object, its members in file order, repeated keys kept. */
  public record Obj(String path, int line, List<Member> members) implements Value {
    /** The first value of {@code key}, or null. */
    public Value first(String key) {
      for (Member m : members) {
        if (m.key().equals(key)) {
          return m.value();
        }
      }
      return null;
    }

    @Override
    public String kind() {
      return "an object";
    }
  }

  /** An array. */
  public record Arr(String path, int line, List<Value> elements) implements Value {
    @Override
    public String kind() {
      return "an array";
    }
  }

  /** A string. */
  public record Str(String path, int line, String text) implements Value {
    @Override
    public String kind() {
      return "a string";
    }
  }

  /** A number, as written. */
  public record Num(String path, int line, String text) implements Value {
    /** True if written as an integer (no fraction, no exponent). */
    public boolean isInteger() {
      return text.indexOf('.') < 0 && text.indexOf('e') < 0 && text.indexOf('E') < 0;
    }

    @Override
    public String kind() {
      return "a number";
    }
  }

  /** {@code true} or {@code false}. */
  public record Bool(String path, int line, boolean value) implements Value {
    @Override
    public String kind() {
      return "a boolean";
    }
  }

  /** {@code null}. */
  public record Null(String path, int line) implements Value {
    @Override
    public String kind() {
      return "null";
    }
  }

  private final String s;
  private int pos;
  private int line = 1;
  private int lineStart;

  private LenientJson(String s) {
    this.s = s;
  }

  /**
   * The object {@code text} holds.
   *
   * @throws IllegalArgumentException naming the line, column and path of the first error
   */
  public static Obj parse(String text) {
    LenientJson p = new LenientJson(text);
    p.skip();
    if (p.pos >= p.s.length() || p.s.charAt(p.pos) != '{') {
      throw p.error("", "the file must hold one JSON object");
    }
    Obj root = p.object("");
    p.skip();
    if (p.pos < p.s.length()) {
      throw p.error("", "text after the closing '}'");
    }
    return root;
  }

  private IllegalArgumentException error(String path, String what) {
    return new IllegalArgumentException("malformed JSON at line " + line + " column " + (pos - lineStart + 1)
        + (path.isEmpty() ? "" : " (in " + path + ")") + ": " + what);
  }

  private static String child(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  /** Skips blanks and comments. */
  private void skip() {
    while (pos < s.length()) {
      char c = s.charAt(pos);
      if (c == '\n') {
        pos++;
        line++;
        lineStart = pos;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        pos++;
      } else if (c == '/' && pos + 1 < s.length() && s.charAt(pos + 1) == '/') {
        while (pos < s.length() && s.charAt(pos) != '\n') {
          pos++;
        }
      } else if (c == '/' && pos + 1 < s.length() && s.charAt(pos + 1) == '*') {
        int end = s.indexOf("*/", pos + 2);
        if (end < 0) {
          throw error("", "a comment that is not closed");
        }
        for (int i = pos; i < end; i++) {
          if (s.charAt(i) == '\n') {
            line++;
            lineStart = i + 1;
          }
        }
        pos = end + 2;
      } else {
        return;
      }
    }
  }

  private Value value(String path) {
    skip();
    if (pos >= s.length()) {
      throw error(path, "the file ends where a value was expected");
    }
    char c = s.charAt(pos);
    int at = line;
    if (c == '{') {
      return object(path);
    }
    if (c == '[') {
      return array(path);
    }
    if (c == '"') {
      return new Str(path, at, string(path));
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      return number(path);
    }
    if (s.startsWith("true", pos)) {
      pos += 4;
      return new Bool(path, at, true);
    }
    if (s.startsWith("false", pos)) {
      pos += 5;
      return new Bool(path, at, false);
    }
    if (s.startsWith("null", pos)) {
      pos += 4;
      return new Null(path, at);
    }
    throw error(path, "unexpected '" + c + "' where a value was expected");
  }

  private Obj object(String path) {
    int at = line;
    pos++; // '{'
    List<Member> members = new ArrayList<>();
    while (true) {
      skip();
      if (pos >= s.length()) {
        throw error(path, "the file ends inside an object");
      }
      if (s.charAt(pos) == '}') {
        pos++;
        return new Obj(path, at, List.copyOf(members));
      }
      if (s.charAt(pos) != '"') {
        throw error(path, "expected a key in double quotes or '}', found '" + s.charAt(pos) + "'");
      }
      String key = string(path);
      skip();
      if (pos >= s.length() || s.charAt(pos) != ':') {
        throw error(child(path, key), "expected ':' after the key");
      }
      pos++;
      members.add(new Member(key, value(child(path, key))));
      skip();
      if (pos < s.length() && s.charAt(pos) == ',') {
        pos++; // a trailing comma before '}' is accepted, as json-c does
      } else if (pos < s.length() && s.charAt(pos) != '}') {
        throw error(path, "expected ',' or '}' after the value of " + key);
      }
    }
  }

  private Arr array(String path) {
    int at = line;
    pos++; // '['
    List<Value> elements = new ArrayList<>();
    while (true) {
      skip();
      if (pos >= s.length()) {
        throw error(path, "the file ends inside an array");
      }
      if (s.charAt(pos) == ']') {
        pos++;
        return new Arr(path, at, List.copyOf(elements));
      }
      elements.add(value(path + "[" + elements.size() + "]"));
      skip();
      if (pos < s.length() && s.charAt(pos) == ',') {
        pos++;
      } else if (pos < s.length() && s.charAt(pos) != ']') {
        throw error(path, "expected ',' or ']' in an array");
      }
    }
  }

  private String string(String path) {
    pos++; // '"'
    StringBuilder b = new StringBuilder();
    while (true) {
      if (pos >= s.length() || s.charAt(pos) == '\n') {
        throw error(path, "a string that is not closed on its line");
      }
      char c = s.charAt(pos++);
      if (c == '"') {
        return b.toString();
      }
      if (c != '\\') {
        b.append(c);
        continue;
      }
      if (pos >= s.length()) {
        throw error(path, "a string that is not closed");
      }
      char e = s.charAt(pos++);
      switch (e) {
        case '"', '\\', '/' -> b.append(e);
        case 'b' -> b.append('\b');
        case 'f' -> b.append('\f');
        case 'n' -> b.append('\n');
        case 'r' -> b.append('\r');
        case 't' -> b.append('\t');
        case 'u' -> {
          if (pos + 4 > s.length()) {
            throw error(path, "a \\u escape needs four hex digits");
          }
          try {
            b.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
          } catch (NumberFormatException x) {
            throw error(path, "a \\u escape needs four hex digits");
          }
          pos += 4;
        }
        default -> throw error(path, "unknown escape \\" + e);
      }
    }
  }

  private Num number(String path) {
    int at = line;
    int start = pos;
    if (s.charAt(pos) == '-') {
      pos++;
    }
    int digits = pos;
    while (pos < s.length() && "0123456789.eE+-".indexOf(s.charAt(pos)) >= 0) {
      pos++;
    }
    String text = s.substring(start, pos);
    if (digits == pos || !Character.isDigit(s.charAt(digits))) {
      throw error(path, "a number without digits: '" + text + "'");
    }
    try {
      Double.parseDouble(text);
    } catch (NumberFormatException x) {
      throw error(path, "not a number: '" + text + "'");
    }
    return new Num(path, at, text);
  }
}
