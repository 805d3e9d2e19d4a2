/* Test-only stand-in for Windows' bcryptprimitives.dll, for running our Windows programs under
 * Wine 8 (`cargo xtask windows`). Rust's standard library (1.78 and later) takes its random bytes
 * from ProcessPrng in bcryptprimitives.dll, which Wine 8 does not have, so a program would not even
 * start. This forwards ProcessPrng to advapi32's RtlGenRandom (SystemFunction036), which Wine has.
 * Built with mingw at test time next to the programs under test; never shipped.
 *
 * x86_64-w64-mingw32-gcc -shared -o bcryptprimitives.dll bcryptprimitives.c -ladvapi32
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
