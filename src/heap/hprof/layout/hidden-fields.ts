/**
 * What an instance holds that its class dump does not show: fields HotSpot injects into a few JDK
 * classes (the heap dumper writes only declared fields) and declared fields it pads as a @Contended
 * group. Each row is a fact of HotSpot's sources, checked against `jmap -histo` of real JVMs
 * (fixtures/heap/layouts), and says when it holds in terms a dump shows: a class or a field that
 * exists only from or up to some JDK.
 */

/** The kind of an injected field: `word` is a native pointer (8 bytes on a 64-bit JVM, 4 on a 32-bit one). */
export type InjectedKind = 'word' | 'long' | 'int' | 'short' | 'boolean' | 'reference';

export interface HiddenFieldRow {
  /** The class whose instances carry the fields (internal name). */
  readonly className: string;
  /** Fields HotSpot adds to this class without declaring them. */
  readonly injected?: readonly InjectedKind[];
  /** Declared fields of this class that HotSpot lays out as one @Contended group, padded before and after. */
  readonly contendedGroup?: readonly string[];
  /**
   * Up to JDK 14, HotSpot placed this class's fields in a fixed order its own code relied on: the
   * references first, then longs, ints, shorts and bytes, with no gap filled.
   */
  readonly referencesFirst?: boolean;
  /** When the row holds: a class the dump has or lacks, a field this class declares or lacks. */
  readonly when?: { readonly hasClass?: string; readonly lacksClass?: string; readonly hasField?: string; readonly lacksField?: string };
  readonly reason: string;
  /** Where the fact was read or measured. */
  readonly source: string;
}

const JAVA_CLASSES = 'OpenJDK src/hotspot/share/classfile/javaClasses.hpp (the *_INJECTED_FIELDS lists)';
const MEASURED = 'jmap -histo:live beside the heap dump of the same JVM: fixtures/heap/layouts';

export const HIDDEN_FIELD_ROWS: readonly HiddenFieldRow[] = [
  {
    className: 'java/lang/ClassLoader',
    injected: ['word'],
    when: { hasClass: 'java/lang/reflect/Executable' },
    reason: "the loader_data pointer to the loader's metaspace data, injected since JDK 8",
    source: `${JAVA_CLASSES}; ${MEASURED} (JDK 8 to 25)`,
  },
  {
    className: 'java/lang/Class',
    injected: ['reference', 'reference', 'reference'],
    when: { lacksClass: 'java/lang/AutoCloseable' },
    reason: "a class object's references to its class, its array class and its resolved constructor, hidden fields up to JDK 6",
    source:
      'OpenJDK 6 hotspot/src/share/vm/classfile/javaClasses.cpp (the hard-coded fake oop fields); ' +
      "the jmap histogram beside MAT's sun_jdk6_30_x64_compressedOops dump",
  },
  {
    className: 'java/lang/Class',
    injected: ['reference', 'reference', 'reference', 'int', 'int'],
    when: { hasClass: 'java/lang/AutoCloseable', lacksClass: 'java/lang/reflect/Executable' },
    reason:
      "a class object's class, array class and resolved constructor, its size and its count of static references (JDK 7, statics now in the class object)",
    source: 'OpenJDK 7 hotspot/src/share/vm/classfile/javaClasses.hpp; not measured here (no JDK 7 runs on this machine)',
  },
  {
    className: 'java/lang/Class',
    injected: ['word', 'word', 'int', 'int', 'reference'],
    when: { hasClass: 'java/lang/reflect/Executable' },
    reason: "a class object's pointers to its class and array class, its size, its count of static references and its protection domain, injected since JDK 8",
    source: `${JAVA_CLASSES}; ${MEASURED}`,
  },
  {
    className: 'java/lang/Class',
    injected: ['reference'],
    when: { hasClass: 'java/lang/reflect/Executable', lacksClass: 'java/lang/Module' },
    reason: "a class object's lock for its initialisation, injected in JDK 8",
    source: `${JAVA_CLASSES}; ${MEASURED}`,
  },
  {
    className: 'java/lang/Class',
    injected: ['reference'],
    when: { hasClass: 'java/lang/reflect/Executable', lacksField: 'signers' },
    reason: "a class object's signers, injected until JDK 24 declares them",
    source: `${JAVA_CLASSES}; ${MEASURED}`,
  },
  {
    className: 'java/lang/Class',
    injected: ['reference'],
    when: { hasClass: 'java/lang/Module' },
    reason: "a class object's source file name, injected since JDK 9",
    source: `${JAVA_CLASSES}; ${MEASURED}`,
  },
  {
    className: 'java/lang/Module',
    injected: ['word'],
    reason: 'the module_entry pointer, injected since java.lang.Module exists (JDK 9)',
    source: `${JAVA_CLASSES}; ${MEASURED} (JDK 11 to 25)`,
  },
  {
    className: 'java/lang/Thread',
    injected: ['word', 'int', 'short', 'boolean'],
    when: { hasField: 'holder' },
    reason:
      "the JVMTI thread state, the count of JVMTI transitions disabled, whether one is under way, and JFR's epoch, " +
      'injected since the virtual-thread rewrite of Thread (JDK 19)',
    source: `${JAVA_CLASSES}; ${MEASURED} (JDK 21, 25 and 25 with compact headers)`,
  },
  {
    className: 'java/lang/Thread',
    contendedGroup: ['threadLocalRandomSeed', 'threadLocalRandomProbe', 'threadLocalRandomSecondarySeed'],
    when: { lacksField: 'holder' },
    reason:
      'ThreadLocalRandom\'s per-thread seed and probe are a @Contended("tlr") group until the virtual-thread rewrite of Thread ' +
      '(JDK 19), which keeps its state in a FieldHolder',
    source: `OpenJDK src/java.base/share/classes/java/lang/Thread.java; ${MEASURED} (JDK 8, 11, 17 padded; 21, 25 not)`,
  },
  ...[
    'java/lang/AssertionStatusDirectives',
    'java/lang/Class',
    'java/lang/ClassLoader',
    'java/lang/ref/Reference',
    'java/lang/ref/SoftReference',
    'java/lang/StackTraceElement',
    'java/lang/String',
    'java/lang/Throwable',
    'java/lang/Boolean',
    'java/lang/Character',
    'java/lang/Float',
    'java/lang/Double',
    'java/lang/Byte',
    'java/lang/Short',
    'java/lang/Integer',
    'java/lang/Long',
  ].map((className): HiddenFieldRow => ({
    className,
    referencesFirst: true,
    reason: 'a class whose field offsets HotSpot up to JDK 14 hard-coded: laid out references first, with no gap filled',
    source: `OpenJDK 8 and 11 src/hotspot/share/classfile/classFileParser.cpp (layout_fields); ${MEASURED} (class loaders of JDK 8 and 11)`,
  })),
];

/** Bytes of padding HotSpot puts before and after a @Contended group (ContendedPaddingWidth's default). */
export const CONTENDED_PADDING_BYTES = 128;
