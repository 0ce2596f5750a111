<?php
function f( { $x = ; }
