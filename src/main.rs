fn main() {
    std::process::exit(derivcheck::cli::main());
}
