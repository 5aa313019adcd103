//! Progress on stderr while a book is checked: a bar with the files done and the one being
//! checked, only when stderr is a terminal; otherwise silent, or one line per file with `-v`.

use std::io::IsTerminal;

#[derive(Clone)]
pub struct Progress {
    bar: Option<indicatif::ProgressBar>,
    verbose: bool,
    lang: crate::report::Lang,
}

impl Progress {
    pub fn new(files: u64, verbose: bool, lang: crate::report::Lang) -> Progress {
        let unit = crate::report::words(lang).files;
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(files);
            let style = indicatif::ProgressStyle::with_template(&format!("{{bar:30}} {{pos}}/{{len}} {unit}  {{msg}}"))
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
            bar.set_style(style);
            bar
        });
        Progress { bar, verbose, lang }
    }

    /// A file (or chapter) starts.
    pub fn start(&self, name: &str) {
        match &self.bar {
            Some(bar) => bar.set_message(name.to_string()),
            None if self.verbose => eprintln!("{} {name}", crate::report::words(self.lang).checking),
            None => {}
        }
    }

    /// The chapters before the `index`th are done, and `name` starts.
    pub fn reached(&self, index: u64, name: &str) {
        if let Some(bar) = &self.bar {
            bar.set_position(index);
        }
        self.start(name);
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
