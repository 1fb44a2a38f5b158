/** The heap formats dumpsleuth reads, as identifying a file names them. */
export type HeapInputKind = 'hprof' | 'dumpsleuth-heap' | 'v8-heapsnapshot';
