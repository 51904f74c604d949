//! B5: the cheapest program a process-per-adjudication tool could be.
fn main() {
    println!("hello");
}
