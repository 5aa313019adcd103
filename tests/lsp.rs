//! `derivcheck lsp` driven over stdio as an editor drives it: initialize, open a chapter with a
//! slip, see the REFUTED diagnostic at the slip's range, hover it, take its repair, fix the text
//! and see the diagnostic go, shut down.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The longest a step may take before the test calls it a hang.
const PATIENCE: Duration = Duration::from_secs(120);

struct Editor {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: u64,
}

impl Editor {
    fn start(cache: &std::path::Path) -> Editor {
        let mut child = Command::new(env!("CARGO_BIN_EXE_derivcheck"))
            .args(["lsp", "--debounce", "50", "--cache", cache.to_str().unwrap()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("derivcheck lsp starts");
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, messages) = std::sync::mpsc::channel();
        std::thread::spawn(move || loop {
            let mut length = None;
            loop {
                let mut header = String::new();
                if stdout.read_line(&mut header).unwrap_or(0) == 0 {
                    return;
                }
                let header = header.trim_end();
                if header.is_empty() {
                    break;
                }
                if let Some(n) = header.strip_prefix("Content-Length: ") {
                    length = n.parse::<usize>().ok();
                }
            }
            let mut body = vec![0; length.expect("a Content-Length header")];
            stdout.read_exact(&mut body).unwrap();
            if tx.send(serde_json::from_slice(&body).expect("a JSON message")).is_err() {
                return;
            }
        });
        Editor { child, stdin, messages, next_id: 1 }
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// `didOpen` of a document with its text.
    fn open(&mut self, uri: &str, language: &str, version: i64, text: &str) {
        let document = json!({ "uri": uri, "languageId": language, "version": version, "text": text });
        self.notify("textDocument/didOpen", json!({ "textDocument": document }));
    }

    /// Sends a request and waits for its response's result.
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        let response = self.wait_for(|m| m["id"] == id && m.get("method").is_none());
        assert!(response.get("error").is_none(), "{method}: {response:#}");
        response["result"].clone()
    }

    fn wait_for(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        let start = Instant::now();
        loop {
            match self.messages.recv_timeout(PATIENCE.saturating_sub(start.elapsed())) {
                Ok(message) if wanted(&message) => return message,
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => panic!("no such message within {PATIENCE:?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("the server closed its output"),
            }
        }
    }

    /// The diagnostics published for `uri` at `version`.
    fn diagnostics(&mut self, uri: &str, version: i64) -> Vec<Value> {
        let published = self.wait_for(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && m["params"]["version"] == version
        });
        published["params"]["diagnostics"].as_array().unwrap().clone()
    }
}

/// The 0-based line and UTF-16 column of a byte offset.
fn position(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    json!({ "line": line, "character": text[start..offset].encode_utf16().count() })
}

#[test]
fn an_editor_sees_the_slip_hovers_it_repairs_it_and_sees_it_go() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.md");
    let slip = "# 1 展开\n\n平方展开：$(a+b)^2 = a^2 + b^2$，以及 $(a-b)(a+b) = a^2 - b^2$。\n";
    std::fs::write(&path, slip).unwrap();
    let uri = format!("file://{}", path.display());
    let mut editor = Editor::start(&dir.path().join("cache"));
    let init =
        editor.request("initialize", json!({ "processId": null, "rootUri": null, "capabilities": {}, "locale": "en" }));
    assert_eq!(init["capabilities"]["hoverProvider"], true, "{init:#}");
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-16");
    editor.notify("initialized", json!({}));
    editor.open(&uri, "markdown", 1, slip);

    // The slip: an error at the link's range, in the editor's language.
    let diagnostics = editor.diagnostics(&uri, 1);
    let errors: Vec<&Value> = diagnostics.iter().filter(|d| d["severity"] == 1).collect();
    assert_eq!(errors.len(), 1, "{diagnostics:#?}");
    let error = errors[0];
    let link = slip.find("(a+b)^2 = a^2 + b^2").unwrap();
    assert_eq!(error["range"]["start"], position(slip, link), "{error:#}");
    assert_eq!(error["range"]["end"], position(slip, link + "(a+b)^2 = a^2 + b^2".len()), "{error:#}");
    assert!(error["code"].as_str().unwrap().starts_with("refuted."), "{error:#}");
    assert!(error["message"].as_str().unwrap().starts_with("REFUTED 1#1"), "{error:#}");

    // Hover: how it was read, and the counterexample.
    let hover = editor
        .request("textDocument/hover", json!({ "textDocument": { "uri": uri }, "position": position(slip, link + 3) }));
    let said = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(said.contains("REFUTED") && said.contains("`1#1`"), "{hover:#}");
    assert!(said.contains("As derivcheck read it: `{\\left(a+b\\right)}^{2}"), "{hover:#}");
    assert!(said.contains("Counterexample: ") && said.contains("a = "), "{hover:#}");
    let elsewhere = editor.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri }, "position": { "line": 0, "character": 1 } }),
    );
    assert!(elsewhere.is_null(), "no hover outside formulas: {elsewhere:#}");

    // The repair, as a quick fix editing the link.
    let actions = editor.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": uri }, "range": error["range"], "context": { "diagnostics": [error] } }),
    );
    let action = &actions[0];
    assert_eq!(action["kind"], "quickfix", "{actions:#}");
    let edit = &action["edit"]["changes"][&uri][0];
    assert_eq!(edit["range"], error["range"]);
    let repaired = edit["newText"].as_str().unwrap();
    assert!(repaired.contains("2 a b"), "{edit:#}");

    // The author applies it: the REFUTED goes.
    let fixed = slip.replacen("(a+b)^2 = a^2 + b^2", repaired, 1);
    editor.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [{ "text": fixed }] }),
    );
    let after = editor.diagnostics(&uri, 2);
    assert!(after.iter().all(|d| d["severity"] != 1), "{after:#?}");

    assert!(editor.request("shutdown", Value::Null).is_null());
    editor.notify("exit", Value::Null);
    let start = Instant::now();
    let status = loop {
        if let Some(status) = editor.child.try_wait().unwrap() {
            break status;
        }
        assert!(start.elapsed() < PATIENCE, "the server did not exit");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status:?}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), slip, "the file on disk is never touched");
}

#[test]
fn the_editor_locale_picks_the_language_and_a_bad_message_is_only_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.md");
    let slip = "# 1 A\n\n$(a+b)^2 = a^2 + b^2$\n";
    let uri = format!("file://{}", path.display());
    let mut editor = Editor::start(&dir.path().join("cache"));
    editor.request("initialize", json!({ "processId": null, "rootUri": null, "capabilities": {}, "locale": "zh-CN" }));
    editor.notify("initialized", json!({}));
    // A malformed message costs that message, not the session.
    editor.notify("textDocument/didOpen", json!({ "bogus": 1 }));
    editor.send(json!({ "jsonrpc": "2.0", "id": 99, "method": "textDocument/hover", "params": { "bogus": 1 } }));
    let refused = editor.wait_for(|m| m["id"] == 99);
    assert_eq!(refused["error"]["code"], -32602, "invalid params: {refused:#}");
    editor.open(&uri, "markdown", 7, slip);
    let diagnostics = editor.diagnostics(&uri, 7);
    assert!(diagnostics.iter().any(|d| d["message"].as_str().unwrap().starts_with("已驳回")), "{diagnostics:#?}");
    assert!(editor.request("shutdown", Value::Null).is_null());
    editor.notify("exit", Value::Null);
    let _ = editor.child.wait();
}

/// A notebook opened as text: its slip is an error at the `.ipynb` line that holds it.
#[test]
fn a_notebooks_slip_is_at_its_line_of_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("n.ipynb");
    let cell = |lines: &[&str]| {
        let source: Vec<String> = lines.iter().map(|l| serde_json::to_string(l).unwrap()).collect();
        format!(
            "  {{\n   \"cell_type\": \"markdown\",\n   \"metadata\": {{}},\n   \"source\": [\n    {}\n   ]\n  }}",
            source.join(",\n    ")
        )
    };
    let cells = [
        cell(&["# 1 Squares\n", "\n", "We expand $$(a+b)^2 = a^2 + 2ab + b^2$$\n"]),
        cell(&["and $$(a-b)^2 = a^2 + 2ab + b^2$$"]),
    ];
    let text = format!(
        "{{\n \"cells\": [\n{}\n ],\n \"metadata\": {{}},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}}\n",
        cells.join(",\n")
    );
    let uri = format!("file://{}", path.display());
    let mut editor = Editor::start(&dir.path().join("cache"));
    editor.request("initialize", json!({ "processId": null, "rootUri": null, "capabilities": {} }));
    editor.notify("initialized", json!({}));
    editor.open(&uri, "json", 1, &text);
    let diagnostics = editor.diagnostics(&uri, 1);
    let errors: Vec<&Value> = diagnostics.iter().filter(|d| d["severity"] == 1).collect();
    assert_eq!(errors.len(), 1, "{diagnostics:#?}");
    let line = text.lines().position(|l| l.contains("(a-b)^2")).unwrap();
    assert_eq!(errors[0]["range"]["start"]["line"], line, "{:#}", errors[0]);
    assert!(editor.request("shutdown", Value::Null).is_null());
    editor.notify("exit", Value::Null);
    let _ = editor.child.wait();
}
