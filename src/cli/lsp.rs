//! `derivcheck lsp`: the checker as a language server on stdio (lsp-server + lsp-types), so
//! that authors see verdicts where they write. A Markdown (`.md`, `.markdown`, `.mdx`) or
//! notebook file is checked when it is opened or saved, and a moment after each edit (the
//! edits of a burst of typing checked once, the verdict cache reusing every unchanged claim's
//! verdict); its diagnostics are `check`'s — the same verdicts, places and words, Chinese or
//! English from the editor's locale, `initializationOptions.lang` or `--lang`. Hover over a
//! checked formula shows how derivcheck read each claim and, for a refuted one, the
//! counterexample; a refuted claim with a verified repair has a quick fix that writes it. The
//! spec is the file's chapter's `checks.toml` (its folder's), as `check` finds it for the
//! chapter.

use super::{check_with_spec, Checked, LangArg};
use crate::driver::{deadline_after, verdict_cache, CheckOptions, VerdictCache};
use crate::notes::{Document, LineIndex};
use crate::report::diagnostic::{findings, Diagnostic, Severity};
use crate::report::{ClaimEntry, Lang};
use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use lsp_types as lsp;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct LspArgs {
    /// Language of the diagnostics (default: `initializationOptions.lang`, else the editor's
    /// locale).
    #[arg(long, value_enum)]
    lang: Option<LangArg>,
    /// Milliseconds to wait after an edit before checking (edits meanwhile restart the wait).
    #[arg(long, value_name = "MS", default_value_t = 300)]
    debounce: u64,
    /// Where verdicts are cached between checks and runs (default: `target/derivcheck-cache`
    /// in the folder the editor starts the server in).
    #[arg(long, value_name = "DIR")]
    cache: Option<PathBuf>,
    /// Check every claim again on every edit.
    #[arg(long)]
    no_cache: bool,
    /// Stop a check after this many seconds (the claims left are undecided, saying so).
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    time_limit: u64,
}

pub fn run(args: &LspArgs) -> i32 {
    let (connection, io) = Connection::stdio();
    let served = serve(&connection, args);
    drop(connection);
    let joined = io.join();
    match (served, joined) {
        (Ok(()), Ok(())) => super::EXIT_OK,
        (Err(e), _) => {
            eprintln!("derivcheck lsp: {e}");
            super::EXIT_BAD_INPUT
        }
        (_, Err(e)) => {
            eprintln!("derivcheck lsp: {e}");
            super::EXIT_OUTPUT_FAILED
        }
    }
}

type Failure = Box<dyn std::error::Error + Send + Sync>;

fn serve(connection: &Connection, args: &LspArgs) -> Result<(), Failure> {
    let (id, params) = connection.initialize_start()?;
    let params: lsp::InitializeParams = serde_json::from_value(params)?;
    let encoding = Encoding::of_client(&params);
    let lang = args.lang.map(Lang::from).unwrap_or_else(|| lang_of_client(&params));
    crate::driver::speak(lang);
    let capabilities = lsp::ServerCapabilities {
        position_encoding: Some(encoding.kind()),
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Options(lsp::TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(lsp::TextDocumentSyncKind::FULL),
            save: Some(lsp::TextDocumentSyncSaveOptions::Supported(true)),
            ..Default::default()
        })),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Simple(true)),
        ..Default::default()
    };
    let result = serde_json::json!({
        "capabilities": capabilities,
        "serverInfo": { "name": "derivcheck", "version": env!("CARGO_PKG_VERSION") },
    });
    connection.initialize_finish(id, result)?;
    let mut server = Server {
        lang,
        encoding,
        debounce: Duration::from_millis(args.debounce),
        time_limit: args.time_limit,
        cache: verdict_cache(args.cache.as_deref(), args.no_cache),
        documents: HashMap::new(),
    };
    loop {
        let message = match server.next_due() {
            Some(due) => match connection.receiver.recv_timeout(due.saturating_duration_since(Instant::now())) {
                Ok(message) => Some(message),
                Err(crossbeam_channel::RecvTimeoutError::Timeout) => None,
                Err(crossbeam_channel::RecvTimeoutError::Disconnected) => return Ok(()),
            },
            None => match connection.receiver.recv() {
                Ok(message) => Some(message),
                Err(_) => return Ok(()),
            },
        };
        match message {
            None => server.check_due(connection)?,
            Some(Message::Request(request)) => {
                if connection.handle_shutdown(&request)? {
                    return Ok(());
                }
                let response = server.answer(connection, request)?;
                connection.sender.send(response.into())?;
            }
            Some(Message::Notification(notification)) => {
                if notification.method == "exit" {
                    return Ok(());
                }
                server.hear(connection, notification)?;
            }
            Some(Message::Response(_)) => {}
        }
    }
}

/// The language of the editor: Chinese for a `zh` locale or `initializationOptions.lang`.
fn lang_of_client(params: &lsp::InitializeParams) -> Lang {
    let option = params.initialization_options.as_ref().and_then(|o| o.get("lang")).and_then(|l| l.as_str());
    let locale = option.or(params.locale.as_deref()).unwrap_or("en");
    if locale.to_ascii_lowercase().starts_with("zh") {
        Lang::Zh
    } else {
        Lang::En
    }
}

/// How positions count characters on the wire: UTF-8 bytes where the client offers it, else
/// UTF-16 code units (the protocol's default).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Encoding {
    Utf8,
    Utf16,
}

impl Encoding {
    fn of_client(params: &lsp::InitializeParams) -> Encoding {
        let offered = params.capabilities.general.as_ref().and_then(|g| g.position_encodings.as_ref());
        if offered.is_some_and(|kinds| kinds.contains(&lsp::PositionEncodingKind::UTF8)) {
            Encoding::Utf8
        } else {
            Encoding::Utf16
        }
    }

    fn kind(self) -> lsp::PositionEncodingKind {
        match self {
            Encoding::Utf8 => lsp::PositionEncodingKind::UTF8,
            Encoding::Utf16 => lsp::PositionEncodingKind::UTF16,
        }
    }

    fn units(self, text: &str) -> usize {
        match self {
            Encoding::Utf8 => text.len(),
            Encoding::Utf16 => text.encode_utf16().count(),
        }
    }
}

/// Positions of one text, both ways.
struct Positions<'a> {
    text: &'a str,
    lines: LineIndex<'a>,
    encoding: Encoding,
}

impl<'a> Positions<'a> {
    fn new(text: &'a str, encoding: Encoding) -> Positions<'a> {
        Positions { text, lines: LineIndex::new(text), encoding }
    }

    fn position(&self, offset: usize) -> lsp::Position {
        let offset = self.text.floor_char_boundary(offset);
        let line = self.lines.line_of(offset);
        let character = self.encoding.units(&self.text[self.lines.line_starts()[line]..offset]);
        lsp::Position { line: line as u32, character: character as u32 }
    }

    fn offset(&self, position: lsp::Position) -> usize {
        let starts = self.lines.line_starts();
        let Some(&start) = starts.get(position.line as usize) else { return self.text.len() };
        let end = starts.get(position.line as usize + 1).map_or(self.text.len(), |&next| next);
        let mut units = 0;
        for (i, c) in self.text[start..end].char_indices() {
            if units >= position.character as usize {
                return start + i;
            }
            units += self.encoding.units(c.encode_utf8(&mut [0; 4]));
        }
        end
    }

    /// The position of a 1-based line and character column.
    fn line_col(&self, line: usize, col: usize) -> lsp::Position {
        self.position(crate::report::diagnostic::offset_of(self.text, line, col))
    }

    fn range(&self, bytes: &std::ops::Range<usize>) -> lsp::Range {
        lsp::Range { start: self.position(bytes.start), end: self.position(bytes.end.max(bytes.start)) }
    }
}

/// What derivcheck says of one document's text: the diagnostics about it and its claims (for
/// hover).
struct Analysis {
    diagnostics: Vec<Diagnostic>,
    claims: Vec<ClaimEntry>,
}

impl Analysis {
    /// Checks `text` as the notes file at `path`, with its chapter's spec (its folder's
    /// `checks.toml`).
    fn of(path: &Path, text: &str, options: CheckOptions, lang: Lang) -> Analysis {
        let shown = path.display().to_string();
        let doc = match Document::read(&shown, text.to_string()) {
            Ok(doc) => doc,
            Err(e) => {
                let error = super::InputError::NotANotebook {
                    path: shown.clone(),
                    line: e.line,
                    col: e.col,
                    message: e.message,
                };
                return Analysis::failed(&shown, error.said(lang));
            }
        };
        let spec = path.parent().map(|dir| dir.join("checks.toml")).filter(|p| p.is_file());
        match check_with_spec(vec![doc], spec, options) {
            Ok(checked) => Analysis::of_checked(&checked, &shown, lang),
            Err(failure) => Analysis::failed(&shown, failure.said(lang)),
        }
    }

    fn of_checked(checked: &Checked, shown: &str, lang: Lang) -> Analysis {
        let spec = checked.spec_path.as_ref().map(|_| (checked.spec_shown.as_str(), checked.spec_source.as_str()));
        let mut diagnostics = findings(&checked.report, &checked.docs, &checked.parse_failures, spec, lang);
        // (Claims the spec states are underlined in the spec, not here.)
        diagnostics.retain(|d| d.file == shown);
        let claims = checked.report.files.iter().flat_map(|f| f.claims.iter().cloned()).collect();
        // A notebook's spans are in the Markdown of its cells, not in the `.ipynb` text the
        // editor holds: its findings are placed by line and column, and it has no hover.
        if checked.docs.iter().any(|d| !d.cells.is_empty()) {
            diagnostics.iter_mut().for_each(|d| (d.span, d.replaces) = (None, None));
            return Analysis { diagnostics, claims: Vec::new() };
        }
        Analysis { diagnostics, claims }
    }

    /// A document that could not be checked: why, at its start.
    fn failed(shown: &str, message: String) -> Analysis {
        let mut d = Diagnostic::general(Severity::Error, Some(shown), message);
        d.line = 1;
        d.col = 1;
        Analysis { diagnostics: vec![d], claims: Vec::new() }
    }

    /// The claims of the formula at `offset`.
    fn claims_at(&self, offset: usize) -> Vec<&ClaimEntry> {
        self.claims.iter().filter(|c| c.range.is_some_and(|(start, end)| (start..=end).contains(&offset))).collect()
    }
}

/// An open document: its text and version as the editor last sent them, when to check it next,
/// and the last analysis with the text it was made of.
struct Open {
    path: PathBuf,
    text: String,
    version: Option<i32>,
    due: Option<Instant>,
    analysed: Option<(String, Analysis)>,
}

struct Server {
    lang: Lang,
    encoding: Encoding,
    debounce: Duration,
    time_limit: u64,
    cache: Option<Arc<dyn VerdictCache>>,
    documents: HashMap<lsp::Uri, Open>,
}

impl Server {
    fn next_due(&self) -> Option<Instant> {
        self.documents.values().filter_map(|d| d.due).min()
    }

    fn options(&self) -> CheckOptions {
        CheckOptions { cache: self.cache.clone(), deadline: deadline_after(self.time_limit) }
    }

    /// Checks every document whose wait is over, and publishes its diagnostics.
    fn check_due(&mut self, connection: &Connection) -> Result<(), Failure> {
        let now = Instant::now();
        let due: Vec<lsp::Uri> =
            self.documents.iter().filter(|(_, d)| d.due.is_some_and(|t| t <= now)).map(|(u, _)| u.clone()).collect();
        for uri in due {
            self.check_now(connection, &uri)?;
        }
        Ok(())
    }

    /// Checks a document (unless its text is the one last checked) and publishes what was found.
    fn check_now(&mut self, connection: &Connection, uri: &lsp::Uri) -> Result<(), Failure> {
        let (lang, encoding, options) = (self.lang, self.encoding, self.options());
        let Some(open) = self.documents.get_mut(uri) else { return Ok(()) };
        open.due = None;
        if open.analysed.as_ref().is_some_and(|(text, _)| *text == open.text) {
            return Ok(());
        }
        let analysis = Analysis::of(&open.path, &open.text, options, lang);
        let positions = Positions::new(&open.text, encoding);
        let diagnostics: Vec<lsp::Diagnostic> =
            analysis.diagnostics.iter().map(|d| to_lsp(d, &positions, lang)).collect();
        let params = lsp::PublishDiagnosticsParams { uri: uri.clone(), diagnostics, version: open.version };
        open.analysed = Some((open.text.clone(), analysis));
        connection.sender.send(Notification::new("textDocument/publishDiagnostics".into(), params).into())?;
        Ok(())
    }

    fn hear(&mut self, connection: &Connection, notification: Notification) -> Result<(), Failure> {
        match notification.method.as_str() {
            "textDocument/didOpen" => {
                let Some(params) = params::<lsp::DidOpenTextDocumentParams>(&notification.method, notification.params)
                else {
                    return Ok(());
                };
                let document = params.text_document;
                let Some(path) = checked_path(&document.uri) else { return Ok(()) };
                let open = Open {
                    path,
                    text: document.text,
                    version: Some(document.version),
                    due: Some(Instant::now()),
                    analysed: None,
                };
                self.documents.insert(document.uri, open);
            }
            "textDocument/didChange" => {
                let Some(params) =
                    params::<lsp::DidChangeTextDocumentParams>(&notification.method, notification.params)
                else {
                    return Ok(());
                };
                let due = Instant::now() + self.debounce;
                if let Some(open) = self.documents.get_mut(&params.text_document.uri) {
                    // (Whole-text sync: the last change holds the text.)
                    if let Some(change) = params.content_changes.into_iter().last() {
                        open.text = change.text;
                    }
                    open.version = Some(params.text_document.version);
                    open.due = Some(due);
                }
            }
            "textDocument/didSave" => {
                let Some(params) = params::<lsp::DidSaveTextDocumentParams>(&notification.method, notification.params)
                else {
                    return Ok(());
                };
                if let Some(open) = self.documents.get_mut(&params.text_document.uri) {
                    if let Some(text) = params.text {
                        open.text = text;
                    }
                    // (The spec may have changed meanwhile: check again.)
                    open.analysed = None;
                    open.due = Some(Instant::now());
                }
            }
            "textDocument/didClose" => {
                let Some(params) = params::<lsp::DidCloseTextDocumentParams>(&notification.method, notification.params)
                else {
                    return Ok(());
                };
                if self.documents.remove(&params.text_document.uri).is_some() {
                    let cleared = lsp::PublishDiagnosticsParams {
                        uri: params.text_document.uri,
                        diagnostics: Vec::new(),
                        version: None,
                    };
                    connection
                        .sender
                        .send(Notification::new("textDocument/publishDiagnostics".into(), cleared).into())?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn answer(&mut self, connection: &Connection, request: Request) -> Result<Response, Failure> {
        let id = request.id.clone();
        match request.method.as_str() {
            "textDocument/hover" => {
                let Some(params) = params::<lsp::HoverParams>(&request.method, request.params) else {
                    return Ok(invalid_params(id));
                };
                let at = params.text_document_position_params;
                self.check_now(connection, &at.text_document.uri)?;
                Ok(Response::new_ok(id, self.hover(&at.text_document.uri, at.position)))
            }
            "textDocument/codeAction" => {
                let Some(params) = params::<lsp::CodeActionParams>(&request.method, request.params) else {
                    return Ok(invalid_params(id));
                };
                self.check_now(connection, &params.text_document.uri)?;
                Ok(Response::new_ok(id, self.repairs(&params.text_document.uri, params.range)))
            }
            _ => Ok(unknown_method(id, &request.method)),
        }
    }

    fn hover(&self, uri: &lsp::Uri, position: lsp::Position) -> Option<lsp::Hover> {
        let (text, analysis) = self.documents.get(uri)?.analysed.as_ref()?;
        let positions = Positions::new(text, self.encoding);
        let claims = analysis.claims_at(positions.offset(position));
        let first = claims.first()?;
        let (start, end) = first.range?;
        let said = crate::report::hover::hover_markdown(&claims, self.lang);
        Some(lsp::Hover {
            contents: lsp::HoverContents::Markup(lsp::MarkupContent { kind: lsp::MarkupKind::Markdown, value: said }),
            range: Some(positions.range(&(start..end))),
        })
    }

    /// The verified repairs of the refuted claims in `range`, each a quick fix.
    fn repairs(&self, uri: &lsp::Uri, range: lsp::Range) -> Vec<lsp::CodeActionOrCommand> {
        let Some((text, analysis)) = self.documents.get(uri).and_then(|d| d.analysed.as_ref()) else {
            return Vec::new();
        };
        let positions = Positions::new(text, self.encoding);
        let (from, to) = (positions.offset(range.start), positions.offset(range.end));
        let w = crate::report::words(self.lang);
        analysis
            .diagnostics
            .iter()
            .filter_map(|d| {
                let (tex, replaces) = (d.suggestion.as_ref()?, d.replaces.clone()?);
                text.get(replaces.clone())?;
                let touches = d.span.as_ref().is_some_and(|span| span.start <= to && from <= span.end.max(span.start));
                touches.then(|| {
                    let edit = lsp::TextEdit { range: positions.range(&replaces), new_text: tex.clone() };
                    lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                        title: format!("{}: {tex}", w.did_you_mean),
                        kind: Some(lsp::CodeActionKind::QUICKFIX),
                        diagnostics: Some(vec![to_lsp(d, &positions, self.lang)]),
                        edit: Some(lsp::WorkspaceEdit {
                            changes: Some(HashMap::from([(uri.clone(), vec![edit])])),
                            ..Default::default()
                        }),
                        is_preferred: Some(true),
                        ..Default::default()
                    })
                })
            })
            .collect()
    }
}

/// A message's parameters, or `None` after saying on stderr (the editor's log) why they do not
/// read: a client's malformed message costs that message, never the session.
fn params<T: serde::de::DeserializeOwned>(method: &str, value: serde_json::Value) -> Option<T> {
    serde_json::from_value(value).map_err(|e| eprintln!("derivcheck lsp: `{method}`: {e}")).ok()
}

fn invalid_params(id: RequestId) -> Response {
    Response::new_err(id, lsp_server::ErrorCode::InvalidParams as i32, "derivcheck lsp: invalid parameters".into())
}

fn unknown_method(id: RequestId, method: &str) -> Response {
    Response::new_err(id, lsp_server::ErrorCode::MethodNotFound as i32, format!("derivcheck lsp: no `{method}`"))
}

/// The file a `file:` URI names, if derivcheck reads it (Markdown and notebooks).
fn checked_path(uri: &lsp::Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    let path = PathBuf::from(percent_encoding::percent_decode_str(rest).decode_utf8().ok()?.into_owned());
    crate::notes::is_notes_path(&path).then_some(path)
}

/// A diagnostic as the editor shows it: its range, severity, rule, and every word `check`
/// prints under it.
fn to_lsp(d: &Diagnostic, positions: &Positions, lang: Lang) -> lsp::Diagnostic {
    let range = match &d.span {
        Some(span) => positions.range(span),
        None => {
            let start = positions.line_col(d.line, d.col);
            lsp::Range { start, end: start }
        }
    };
    let mut message = d.message.clone();
    for detail in crate::report::ci::details(d, lang) {
        message.push('\n');
        message.push_str(&detail);
    }
    lsp::Diagnostic {
        range,
        severity: Some(match d.severity {
            Severity::Error => lsp::DiagnosticSeverity::ERROR,
            Severity::Warning => lsp::DiagnosticSeverity::WARNING,
            Severity::Note => lsp::DiagnosticSeverity::INFORMATION,
        }),
        code: Some(lsp::NumberOrString::String(d.rule.clone())),
        source: Some("derivcheck".into()),
        message,
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_or_bytes_both_ways() {
        let text = "# 1\n数学 $x𝑦=1$\n";
        let at = text.find('=').unwrap();
        let utf16 = Positions::new(text, Encoding::Utf16);
        assert_eq!(utf16.position(at), lsp::Position { line: 1, character: 7 });
        assert_eq!(utf16.offset(lsp::Position { line: 1, character: 7 }), at);
        let utf8 = Positions::new(text, Encoding::Utf8);
        assert_eq!(utf8.position(at), lsp::Position { line: 1, character: (at - 4) as u32 });
        assert_eq!(utf8.offset(utf8.position(at)), at);
    }

    #[test]
    fn only_notes_files_are_checked() {
        let uri = |s: &str| s.parse::<lsp::Uri>().unwrap();
        assert_eq!(checked_path(&uri("file:///home/a/ch%201/notes.md")), Some(PathBuf::from("/home/a/ch 1/notes.md")));
        assert_eq!(checked_path(&uri("file:///home/a/main.rs")), None);
        assert_eq!(checked_path(&uri("untitled:Untitled-1")), None);
    }
}
