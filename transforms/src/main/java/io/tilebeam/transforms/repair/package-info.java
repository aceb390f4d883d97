/** Polygon validity and repair on a precision grid, applied only to what fails the check. */
package io.tilebeam.transforms.repair;
